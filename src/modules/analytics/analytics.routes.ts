import type { App } from '../../app.ts';

/** Detailed analytics and trends (mounted at /api/v1/analytics; authenticated). */
export async function analyticsRoutes(_app: App) {}

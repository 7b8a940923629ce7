import type { App } from '../../app.ts';

/** Enqueue operations (mounted at /api/v1; authenticated). */
export async function dialerRoutes(_app: App) {}

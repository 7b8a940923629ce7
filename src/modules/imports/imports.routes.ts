import type { App } from '../../app.ts';

/** Bulk import and CSV upload (mounted at /api/v1/contacts; authenticated). */
export async function importsRoutes(_app: App) {}

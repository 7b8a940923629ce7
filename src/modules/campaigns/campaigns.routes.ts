import type { App } from '../../app.ts';

export async function campaignsRoutes(_app: App) {}

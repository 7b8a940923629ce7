import type { App } from '../../app.ts';

export async function callsRoutes(_app: App) {}

import type { App } from '../../app.ts';

export async function subUsersRoutes(_app: App) {}

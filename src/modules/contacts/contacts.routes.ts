import type { App } from '../../app.ts';

export async function contactsRoutes(_app: App) {}

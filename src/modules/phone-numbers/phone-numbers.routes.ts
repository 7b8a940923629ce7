import type { App } from '../../app.ts';

export async function phoneNumbersRoutes(_app: App) {}

import type { App } from '../../app.ts';

/** Provider events and the simulator's inbound trigger (mounted at /api/v1/voice; own authentication). */
export async function voiceEventsRoutes(_app: App) {}

import type { App } from '../../app.ts';

/** The integration-token create-contact endpoint (mounted at /api/v1/contact-creation-integration; token authentication). */
export async function createContactRoutes(_app: App) {}

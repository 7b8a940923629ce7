import type { App } from '../../app.ts';

/** Post-call webhook integrations and their delivery log (mounted at /api/v1/integrations/webhooks; authenticated). */
export async function webhooksRoutes(_app: App) {}

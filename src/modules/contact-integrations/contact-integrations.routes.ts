import type { App } from '../../app.ts';

/** Managing contact-creation integrations (mounted at /api/v1/integrations/contact-creation; authenticated). */
export async function contactIntegrationsRoutes(_app: App) {}

import type { App } from '../../app.ts';
import { cameOverHttps, requireCsrfHeader, sessionCookie } from '../auth/dashboard-session.ts';
import * as ops from './setup.operations.ts';
import { createOwner, readSetup } from './setup.service.ts';

/** GET and POST /setup (mounted at /api/v1, outside the authenticated routes: nobody has an account yet). */
export async function setupRoutes(app: App) {
  app.get('/setup', { schema: ops.ReadSetup }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return readSetup(app.deps.db);
  });
  // The CSRF header before the body is read, as POST /session does.
  app.post('/setup', { schema: ops.CreateOwner, onRequest: async (request) => requireCsrfHeader(request) }, async (request, reply) => {
    const lifetimeSeconds = app.deps.config.ACCESS_TOKEN_EXPIRE_MINUTES * 60;
    const { token, who } = await createOwner({ db: app.deps.db, ...request.body, lifetimeSeconds });
    reply.header('set-cookie', sessionCookie(token, lifetimeSeconds, cameOverHttps(request)));
    reply.header('cache-control', 'no-store');
    return who;
  });
}

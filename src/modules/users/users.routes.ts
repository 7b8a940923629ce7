import type { App } from '../../app.ts';
import { credentialKind } from '../auth/authenticate.ts';
import { cameOverHttps, sessionCookie, sessionTokenOf } from '../auth/dashboard-session.ts';
import { changePassword } from './password-change.service.ts';
import * as ops from './users.operations.ts';
import { readDisplayPreferences, updateDisplayPreferences } from './display-preferences.service.ts';
import { createAccount, describeCaller } from './users.service.ts';

export async function usersRoutes(app: App) {
  const { db, config, clock } = app.deps;

  app.get('/me', { schema: ops.ReadCaller }, async (request) => describeCaller(db, request.principal));
  app.get('/me/preferences', { schema: ops.ReadDisplayPreferences }, async (request) => readDisplayPreferences(db, request.principal));
  app.put('/me/preferences', { schema: ops.UpdateDisplayPreferences }, async (request) => updateDisplayPreferences(db, request.principal, request.body));
  app.post('/', { schema: ops.CreateAccount }, async (request) => createAccount(db, request.principal, request.body));
  app.put('/me/password', { schema: ops.ChangePassword }, async (request, reply) => {
    const lifetimeSeconds = config.ACCESS_TOKEN_EXPIRE_MINUTES * 60;
    // Authenticated by the cookie (not by a key or token sent beside it): that browser keeps a session.
    const bySession = credentialKind({
      apiKey: request.headers['x-api-key'] as string | undefined, authorization: request.headers.authorization, sessionToken: sessionTokenOf(request.headers.cookie),
    }) === 'session';
    const { session } = await changePassword({
      db, principal: request.principal, ...request.body, address: request.ip, maxFailures: config.LOGIN_MAX_FAILURES, now: clock.now(), bySession, lifetimeSeconds,
    });
    if (session) reply.header('set-cookie', sessionCookie(session.token, lifetimeSeconds, cameOverHttps(request)));
    return reply.code(204).header('cache-control', 'no-store').send(null);
  });
}

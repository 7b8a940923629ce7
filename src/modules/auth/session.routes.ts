import type { App } from '../../app.ts';
import { cameOverHttps, clearedSessionCookie, requireCsrfHeader, sessionCookie, sessionTokenOf } from './dashboard-session.ts';
import * as ops from './session.operations.ts';
import { describeSession, signIn, signOut } from './session.service.ts';

/** POST /session: outside the authenticated routes, like the login. */
export async function signInRoutes(app: App) {
  // Login CSRF: before the body is read, so a refused request counts no failed login.
  app.post('/session', { schema: ops.SignIn, onRequest: async (request) => requireCsrfHeader(request) }, async (request, reply) => {
    const { db, clock, config } = app.deps;
    const lifetimeSeconds = config.ACCESS_TOKEN_EXPIRE_MINUTES * 60;
    const { token, who } = await signIn({
      db, ...request.body, address: request.ip, maxFailures: config.LOGIN_MAX_FAILURES, now: clock.now(), lifetimeSeconds,
    });
    reply.header('set-cookie', sessionCookie(token, lifetimeSeconds, cameOverHttps(request)));
    reply.header('cache-control', 'no-store');
    return who;
  });
}

/** GET and DELETE /session: inside the authenticated routes (the cookie, an API key or a bearer token). */
export async function sessionRoutes(app: App) {
  const { db } = app.deps;
  app.get('/session', { schema: ops.ReadSession }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return describeSession(db, request.principal);
  });
  app.delete('/session', { schema: ops.SignOut }, async (request, reply) => {
    await signOut(db, sessionTokenOf(request.headers.cookie));
    return reply.code(204).header('set-cookie', clearedSessionCookie(cameOverHttps(request))).send(null);
  });
}

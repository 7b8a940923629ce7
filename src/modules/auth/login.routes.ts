import type { FastifyRequest } from 'fastify';
import type { App } from '../../app.ts';
import * as ops from './login.operations.ts';
import { loginWithPassword } from './login.service.ts';

export async function loginRoutes(app: App) {
  const warnAboutProxy = proxyWarning(app);

  app.post('/login/access-token', { schema: ops.LogIn }, async (request) => {
    warnAboutProxy(request);
    const { db, tokens, clock, config } = app.deps;
    const token = await loginWithPassword({
      ...request.body, db, tokens, address: request.ip, maxFailures: config.LOGIN_MAX_FAILURES, now: clock.now(),
    });
    return { access_token: token, token_type: 'bearer' as const };
  });
}

/**
 * Behind a proxy without TRUST_PROXY every client shares the proxy's address, and so its
 * failed-login counts: say so once in the log.
 */
function proxyWarning(app: App) {
  let warned = false;
  return (request: FastifyRequest) => {
    if (app.deps.config.TRUST_PROXY || warned || request.headers['x-forwarded-for'] === undefined) return;
    warned = true;
    request.log.warn('X-Forwarded-For arrived but TRUST_PROXY is unset: failed logins are counted per proxy address, not per client');
  };
}

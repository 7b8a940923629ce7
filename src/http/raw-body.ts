import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unprocessable } from './errors.ts';
import { unstorable } from './json-body.ts';

/**
 * Keeps the exact bytes of JSON and form bodies in a plugin whose requests are signed over them
 * (voice vendors' webhooks), replacing, in that plugin only, the app's parsers. Returns the
 * request's raw body ('' when it had none).
 */
export function keepRawBodies(app: FastifyInstance): (request: FastifyRequest) => string {
  const rawBodies = new WeakMap<object, string>();
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    rawBodies.set(req, body as string);
    let parsed: unknown = {};
    try {
      parsed = (body as string).length ? JSON.parse(body as string) : {};
    } catch {
      return done(null, {});
    }
    // The same limits as every JSON body (NUL, lone surrogates, 64 levels): no vendor event comes near them.
    const bad = unstorable(parsed);
    done(bad ? unprocessable(['body', ...bad.loc], bad.msg) : null, bad ? undefined : parsed);
  });
  // Twilio posts forms and signs their parameters.
  if (app.hasContentTypeParser('application/x-www-form-urlencoded')) app.removeContentTypeParser('application/x-www-form-urlencoded');
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (req, body, done) => {
    rawBodies.set(req, body as string);
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  return (request) => rawBodies.get(request) ?? '';
}

import { Type } from 'typebox';
import type { App } from '../../../app.ts';
import { unprocessable } from '../../../http/errors.ts';
import { unstorable } from '../../../http/json-body.ts';
import { Detail, ValidationDetail } from '../../../http/schemas.ts';
import { SIGNATURE_HEADER } from '../../../voice/signature.ts';
import { handleProviderEvents } from './provider-events.ts';

const EventsAnswer = Type.Object({ received: Type.Integer(), applied: Type.Integer(), duplicates: Type.Integer(), unknown_calls: Type.Integer() });

/**
 * Provider events (mounted at /api/v1/voice; authenticated by the provider's signature): the
 * webhook a vendor posts to. The simulator does not come through here: its events go to the
 * events service in-process (connectProviderEvents in provider-events.ts).
 */
export async function callEventsRoutes(app: App) {
  const deps = app.deps;
  const rawBodies = new WeakMap<object, string>();
  // Signatures are computed over the exact bytes sent, so this plugin keeps the raw body
  // (replacing, in this plugin only, the app's JSON parser).
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

  app.post('/:provider/events', {
    schema: {
      tags: ['voice'],
      summary: 'Receive voice provider events',
      description:
        `Webhook for the configured voice provider (VOICE_PROVIDER). No API key: the body must be signed with VOICE_WEBHOOK_SECRET ` +
        `(derived from SECRET_KEY when unset) in the \`${SIGNATURE_HEADER}\` header: \`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>\`; ` +
        `a bad or older-than-5-minutes signature answers 401. Events are de-duplicated by their id; a call's terminal status is sticky ` +
        `(a late event only fills fields that are still empty, e.g. record_url).`,
      params: Type.Object({ provider: Type.String() }),
      body: Type.Unknown(),
      response: { 200: EventsAnswer, 400: Detail, 401: Detail, 404: Detail, 422: ValidationDetail },
    },
  }, async (request, reply) => {
    const rawBody = rawBodies.get(request) ?? "";
    const answer = await handleProviderEvents({ deps, provider: request.params.provider, input: { rawBody, headers: request.headers } });
    return reply.code(answer.statusCode).send(answer.body);
  });

}

import { Type } from 'typebox';
import type { App } from '../../../app.ts';
import { unprocessable } from '../../../shared/errors.ts';
import { unstorable } from '../../../shared/json-body.ts';
import { Detail, ValidationDetail } from '../../../shared/schemas.ts';
import { SIGNATURE_HEADER } from '../../../voice/signature.ts';
import { handleProviderEvents, httpDelivery, inProcessDelivery, markDeliveryAttached } from './provider-events.ts';

const rawBodies = new WeakMap<object, string>();
const EventsAnswer = Type.Object({ received: Type.Integer(), applied: Type.Integer(), duplicates: Type.Integer(), unknown_calls: Type.Integer() });

/** Provider events (mounted at /api/v1/voice; authenticated by the provider's signature). */
export async function voiceEventsRoutes(app: App) {
  const deps = app.deps;
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

  // The simulator reports through this route: in-process through inject until the
  // server listens, then over real HTTP to the listening address.
  const provider = deps.voice;
  if (provider.setDelivery) {
    provider.setDelivery(async ({ path, body, headers }) => {
      const res = await app.inject({ method: 'POST', url: path, payload: body, headers });
      if (res.statusCode !== 200) throw new Error(`event delivery answered ${res.statusCode}`);
    });
    markDeliveryAttached(provider);
    app.addHook('onListen', async () => {
      const address = app.server.address();
      if (address && typeof address === 'object') {
        const host = address.family === 'IPv6' ? `[${address.address === '::' ? '::1' : address.address}]` : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
        provider.setDelivery!(httpDelivery(deps.config.PUBLIC_BASE_URL ?? `http://${host}:${address.port}`));
      }
    });
    // Workers may still finish calls while the server closes: deliver in-process then.
    app.addHook('onClose', async () => provider.setDelivery!(inProcessDelivery(deps)));
  }

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

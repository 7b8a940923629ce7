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
        `Webhook a voice provider posts to: \`sim\`, \`vapi\` or \`retell\` (docs/voice-providers.md). No API key: each request is verified ` +
        `with the provider's own scheme and the credentials of the route: the environment's (VAPI_*, RETELL_*), or those of the account's ` +
        `voice connection named by \`?connection=<id>\` (the voice connection's events_url). Vapi: \`X-Vapi-Secret\` or \`x-signature\` ` +
        `(HMAC-SHA256 of \`{x-timestamp}.{body}\`); Retell: \`x-retell-signature\` (HMAC-SHA256 with the API key); the simulator: ` +
        `\`${SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex HMAC-SHA256(VOICE_WEBHOOK_SECRET, t + "." + raw body)>\`. A bad or ` +
        `older-than-5-minutes signature answers 401 and changes nothing; a provider that is not configured 404. Events are de-duplicated ` +
        `by their id; a call's terminal status is sticky (a late event only fills fields that are still empty, e.g. record_url). ` +
        `An inbound call's assistant request (Vapi \`assistant-request\`, Retell \`call_inbound\`) is answered in the vendor's own format.`,
      params: Type.Object({ provider: Type.String() }),
      querystring: Type.Object({ connection: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1, description: 'the voice connection whose credentials verify the request' })) }),
      body: Type.Unknown(),
      response: { 200: EventsAnswer, 400: Detail, 401: Detail, 404: Detail, 422: ValidationDetail },
    },
  }, async (request, reply) => {
    const rawBody = rawBodies.get(request) ?? "";
    const answer = await handleProviderEvents({
      deps, provider: request.params.provider, connectionId: request.query.connection ?? null, input: { rawBody, headers: request.headers },
    });
    // A vendor's own answer has the vendor's shape, not this route's: sent as formatted.
    if ('vendor' in answer) return reply.code(answer.statusCode as 200).type('application/json').serializer(JSON.stringify).send(answer.body as never);
    return reply.code(answer.statusCode as 200).send(answer.body as { received: number; applied: number; duplicates: number; unknown_calls: number });
  });

}

import { Type } from 'typebox';
import type { App } from '../../../app.ts';
import { keepRawBodies } from '../../../http/raw-body.ts';
import { Detail, ValidationDetail } from '../../../http/schemas.ts';
import { requestedUrl } from '../../../voice/registry.ts';
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
  // Signatures are computed over the exact bytes sent (Twilio's over the form's parameters).
  const rawBodyOf = keepRawBodies(app);

  app.post('/:provider/events', {
    schema: {
      tags: ['voice'],
      operationId: 'receive_voice_events',
      summary: 'Receive voice provider events',
      description:
        `Webhook a voice provider posts to: \`sim\`, \`vapi\` or \`retell\` (docs/voice-providers.md). No API key: each request is verified ` +
        `with the provider's own scheme and the credentials of the route: the environment's (VAPI_*, RETELL_*), or those of the account's ` +
        `voice connection named by \`?connection=<id>\` (the voice connection's events_url). Vapi: \`X-Vapi-Secret\` or \`x-signature\` ` +
        `(HMAC-SHA256 of \`{x-timestamp}.{body}\`); Retell: \`x-retell-signature\` (HMAC-SHA256 with the API key); the simulator: ` +
        `\`${SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex HMAC-SHA256(VOICE_WEBHOOK_SECRET, t + "." + raw body)>\`. A bad or ` +
        `older-than-5-minutes signature answers 401 and changes nothing; a provider that is not configured 404. Before any signature is ` +
        `computed, a JSON body over 4 MiB (an end-of-call report of a two-hour call weighs about 2 MiB) or a form over 64 KiB or 200 ` +
        `parameters answers 413. Events are de-duplicated ` +
        `by their id; a call's terminal status is sticky (a late event only fills fields that are still empty, e.g. record_url). ` +
        `**An event only touches calls of its own route**: a request verified with the environment's credentials reaches only calls ` +
        `placed or answered with them, one verified with voice connection N's only that connection's calls; an event naming a call ` +
        `of another route changes nothing and is counted in \`unknown_calls\`, exactly as a call that does not exist. Our call id in ` +
        `the vendor's metadata (\`metadata.call_id\`) is a positive integer up to 2^53-1, as a JSON number or a string of digits; ` +
        `any other value (2^63, negative, fractional, not digits) names no call of ours: counted in \`unknown_calls\`, 200, never an error. ` +
        `An inbound call's assistant request (Vapi \`assistant-request\`, Retell \`call_inbound\`) is answered in the vendor's own format.`,
      params: Type.Object({ provider: Type.String() }),
      querystring: Type.Object({
        connection: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1, description: 'the voice connection whose credentials verify the request' })),
        call: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1, description: 'Twilio only: our call id (Twilio echoes no metadata, so it rides in the callback URL)' })),
      }),
      consumes: ['application/json', 'application/x-www-form-urlencoded'],
      body: Type.Unknown(),
      response: { 200: EventsAnswer, 400: Detail, 401: Detail, 404: Detail, 413: Detail, 422: ValidationDetail },
    },
  }, async (request, reply) => {
    const rawBody = rawBodyOf(request);
    const url = deps.config.PUBLIC_BASE_URL ? requestedUrl(deps.config.PUBLIC_BASE_URL, request.url) : undefined;
    const answer = await handleProviderEvents({
      deps, provider: request.params.provider, connectionId: request.query.connection ?? null, input: { rawBody, headers: request.headers, url },
    });
    // A vendor's own answer has the vendor's shape, not this route's: sent as formatted.
    if ('vendor' in answer) return reply.code(answer.statusCode as 200).type('application/json').serializer(JSON.stringify).send(answer.body as never);
    return reply.code(answer.statusCode as 200).send(answer.body as { received: number; applied: number; duplicates: number; unknown_calls: number });
  });

}

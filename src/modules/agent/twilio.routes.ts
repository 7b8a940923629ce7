import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../app.ts';
import { keepRawBodies, TWILIO_BODY_LIMITS } from '../../http/raw-body.ts';
import { Detail } from '../../http/schemas.ts';
import { providerFor, requestedUrl, VoiceNotConfiguredError } from '../../voice/registry.ts';
import { VENDORS } from '../../voice/vendors.ts';
import { handleProviderEvents } from '../dialer/call-events/provider-events.ts';
import { callIsOnRoute } from '../dialer/call-events/route-scope.ts';
import { answerVendorInbound } from '../dialer/inbound/vendor-inbound.ts';
import { saveProviderIds } from '../dialer/provider-call-ids.ts';
import { loadCallScript, openingWords } from './call-script.ts';
import { saveAnsweredBy } from './conversation-store.ts';
import { attachRelaySockets } from './relay-socket.ts';
import { attachMediaSockets } from './media-socket.ts';

const Id = (description: string) => Type.Optional(Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1, description }));
const TwilioQuery = Type.Object({
  call: Id('our call id (Twilio echoes no metadata, so it rides in every URL it is given); absent on a TwiML request for an inbound call'),
  connection: Id('the voice connection whose auth token signs the request; absent = TWILIO_AUTH_TOKEN'),
});
const FORM = ['application/x-www-form-urlencoded'];
const SIGNED = 'Verified with `X-Twilio-Signature` (HMAC-SHA1, keyed with the auth token, of PUBLIC_BASE_URL + this path and query, then the form parameters sorted by name); a bad signature answers 403 and changes nothing. Before any signature is computed, a form over 64 KiB or 200 parameters answers 413 (Twilio sends a few dozen). The request reaches only a call of the route whose auth token signed it (TWILIO_AUTH_TOKEN, or the connection\'s): a `call` of another route is answered exactly as an unknown call (a hang-up, 204, or unknown_calls) and nothing of it is read or written.';

const { adapterOf, formOf, isMachine, twiml } = VENDORS.twilio.agent;
const { dial: dialTwiml, hangup: hangupTwiml, relay: relayTwiml, say: sayTwiml } = twiml;

/** Any of these routes' requests (their query is TwilioQuery). */
type TwilioRequest = FastifyRequest & { query: { call?: number; connection?: number } };

/**
 * Twilio's side of our own agent (mounted at /api/v1/voice/twilio): the TwiML of each call, the
 * answering-machine result, where Twilio goes when the relay session ends, the status and
 * recording callbacks, and the ConversationRelay WebSocket (relay-socket.ts).
 */
export async function twilioAgentRoutes(app: App) {
  const deps = app.deps;
  const rawBodyOf = keepRawBodies(app, TWILIO_BODY_LIMITS);
  attachRelaySockets(app);
  attachMediaSockets(app, callIsOnRoute);

  /** The route's provider and the request's form, once its signature holds; else the answer is sent. */
  async function verified(request: FastifyRequest, reply: FastifyReply) {
    const query = (request as TwilioRequest).query;
    const base = deps.config.PUBLIC_BASE_URL;
    let provider = null;
    try {
      provider = adapterOf(await providerFor(deps, { provider: 'twilio', connectionId: query.connection ?? null }));
    } catch (error) {
      if (!(error instanceof VoiceNotConfiguredError)) throw error;
    }
    if (!base || !provider) {
      reply.code(404).send({ detail: 'Twilio is not configured on this service' });
      return null;
    }
    const input = { rawBody: rawBodyOf(request), headers: request.headers, url: requestedUrl(base, request.url) };
    if (!provider.verifyWebhook(input)) {
      reply.code(403).send({ detail: 'Invalid Twilio signature' });
      return null;
    }
    return { provider, input, form: formOf(input) };
  }
  const xml = (reply: FastifyReply, twiml: string) => reply.type('text/xml; charset=utf-8').serializer((x) => x as string).send(twiml);
  const schema = (operationId: string, summary: string, description: string) => ({
    tags: ['voice'], operationId, summary, description: `${description} ${SIGNED}`, querystring: TwilioQuery, consumes: FORM, body: Type.Unknown(),
    response: { 200: Type.String({ description: 'TwiML' }), 403: Detail, 404: Detail, 413: Detail },
  });

  app.post('/twiml', {
    schema: schema('answer_twilio_call', 'TwiML of a Twilio call', 'What Twilio fetches when a call is answered: the call handed to ConversationRelay on this service\'s socket, with the assistant\'s voice, language and greeting. Without `call`, a call to one of the account\'s Twilio numbers (point the number\'s Voice URL here): the number\'s inbound campaign answers, its caller found or created.'),
  }, async (request, reply) => {
    const v = await verified(request, reply);
    if (!v) return reply;
    const callId = request.query.call;
    if (callId === undefined) {
      const inbound = v.provider.parseInbound(v.input);
      if (!inbound) return xml(reply, hangupTwiml());
      const answer = await answerVendorInbound(deps, v.provider, v.provider.route, inbound);
      return xml(reply, answer.body as string);
    }
    const script = await loadCallScript(deps, callId);
    if (!script || script.status !== 'in progress' || script.route.provider !== 'twilio' || script.route.connectionId !== v.provider.route.connectionId) return xml(reply, hangupTwiml());
    // The call's Twilio id, in case the answer to its start was lost (a retry must never dial again).
    const sid = v.form.get('CallSid');
    if (sid) await saveProviderIds(deps.db, [{ callId, providerCallId: sid }]);
    return xml(reply, relayTwiml(v.provider.urls(callId), script.assistant, openingWords(script)));
  });

  app.post('/action', {
    schema: schema('end_twilio_relay_session', 'End of a relay session', 'Where Twilio goes when the agent ends the conversation (its `end` message\'s handoffData comes back as HandoffData): a transfer the agent made dials the assistant\'s transfer number; otherwise the call hangs up.'),
  }, async (request, reply) => {
    const v = await verified(request, reply);
    if (!v) return reply;
    const callId = request.query.call;
    // The handoff is ours (relay-session.ts), returned signed by Twilio; the number is the assistant's, never the message's,
    // and only for a call of the route that signed the request (another route's call is an unknown call).
    const transfer = callId !== undefined && handoffReason(v.form.get('HandoffData')) === 'transfer' && await callIsOnRoute(deps, callId, v.provider.route)
      ? (await loadCallScript(deps, callId))?.assistant?.transferNumber ?? null
      : null;
    return xml(reply, transfer ? dialTwiml(transfer) : hangupTwiml());
  });

  app.post('/amd', {
    schema: { ...schema('receive_twilio_amd_result', 'Answering-machine result', 'Twilio\'s asynchronous answering-machine detection. A machine: the assistant\'s voicemail setting decides: leave_message says its message after the beep, hang_up ends the call; the call ends `voicemail`.'), response: { 204: Type.Null(), 403: Detail, 404: Detail, 413: Detail } },
  }, async (request, reply) => {
    const v = await verified(request, reply);
    if (!v) return reply;
    const callId = request.query.call;
    const answeredBy = v.form.get('AnsweredBy');
    const sid = v.form.get('CallSid');
    if (callId === undefined || !answeredBy || !sid) return reply.code(204).send(null);
    // Another route's call (or none): nothing read, nothing written, answered alike.
    if (!(await callIsOnRoute(deps, callId, v.provider.route))) return reply.code(204).send(null);
    await saveAnsweredBy(deps.db, callId, answeredBy.slice(0, 40));
    if (isMachine(answeredBy)) {
      const voicemail = (await loadCallScript(deps, callId))?.assistant?.voicemail;
      const leave = voicemail?.action === 'leave_message' && voicemail.message;
      await (leave ? v.provider.updateCall(sid, new URLSearchParams({ Twiml: sayTwiml(voicemail.message!) })) : v.provider.hangup(sid))
        .catch((error: Error) => request.log.warn({ err: error, callId }, 'Twilio refused to end a call a machine answered'));
    }
    return reply.code(204).send(null);
  });

  app.post('/events', {
    schema: { ...schema('receive_twilio_call_events', 'Twilio status and recording callbacks', 'The call\'s progress (initiated, ringing, answered, completed and the failures) and its recording, applied as every provider\'s events are.'), response: { 200: Type.Unknown(), 400: Detail, 403: Detail, 404: Detail, 413: Detail } },
  }, async (request, reply) => {
    const base = deps.config.PUBLIC_BASE_URL;
    const input = { rawBody: rawBodyOf(request), headers: request.headers, url: base ? requestedUrl(base, request.url) : undefined };
    const answer = await handleProviderEvents({ deps, provider: 'twilio', connectionId: request.query.connection ?? null, input });
    // Twilio's entry points refuse a bad signature with 403, all alike.
    return reply.code((answer.statusCode === 401 ? 403 : answer.statusCode) as 200).send(answer.body as never);
  });
}

function handoffReason(data: string | null): string | null {
  try {
    const parsed: unknown = data ? JSON.parse(data) : null;
    return parsed && typeof parsed === 'object' && 'reason' in parsed && typeof parsed.reason === 'string' ? parsed.reason : null;
  } catch {
    return null;
  }
}

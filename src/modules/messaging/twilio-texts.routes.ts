import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../app.ts';
import { keepRawBodies, TWILIO_BODY_LIMITS } from '../../http/raw-body.ts';
import { Detail } from '../../http/schemas.ts';
import { requestedUrl } from '../../voice/registry.ts';
import { receiveText } from './inbound.ts';
import { applyTextStatus } from './message-status.ts';
import { applyTextErrorCode } from './text-opt-out.ts';
import { twilioTextRoute, twilioTexts } from './text-routes.ts';

const FORM = ['application/x-www-form-urlencoded'];
const RouteParam = Type.String({ maxLength: 24, description: 'the credentials that sign the request: `env` (TWILIO_AUTH_TOKEN) or `c<voice connection id>` (a Twilio voice connection\'s auth token)' });
const SIGNED = 'Verified with `X-Twilio-Signature` (HMAC-SHA1, keyed with the route\'s auth token, of PUBLIC_BASE_URL + this path, then the form parameters sorted by name) before anything else is read; a bad signature or an unknown route answers 403 and nothing is stored. Before any signature is computed, a form over 64 KiB or 200 parameters answers 413.';

/**
 * Twilio Messaging's side of texts (mounted at /api/v1/messaging/twilio, outside the
 * authenticated API): a message's status callback and the numbers' inbound-message webhook.
 * The route in the path names the auth token that must have signed the request.
 */
export async function twilioTextRoutes(app: App) {
  const deps = app.deps;
  const rawBodyOf = keepRawBodies(app, TWILIO_BODY_LIMITS);

  /** The route's credentials and the form, once the signature holds; else the answer is sent. */
  async function verified(request: FastifyRequest, reply: FastifyReply, routeParam: string) {
    const base = deps.config.PUBLIC_BASE_URL;
    if (!base) {
      reply.code(404).send({ detail: 'Twilio texts need PUBLIC_BASE_URL on this service' });
      return null;
    }
    const route = await twilioTextRoute(deps, routeParam);
    const form = new URLSearchParams(rawBodyOf(request));
    if (!route || !twilioTexts.verify(route.authToken, request.headers['x-twilio-signature'], requestedUrl(base, request.url), form)) {
      reply.code(403).send({ detail: 'Invalid Twilio signature' });
      return null;
    }
    return { route, form };
  }

  app.post('/status/:route/:messageId', {
    schema: {
      tags: ['messaging'], operationId: 'receive_twilio_text_status', summary: 'Twilio status callback of a text',
      description: `A text's delivery (MessageStatus queued, sent, delivered, undelivered, failed, read; ErrorCode): the message only moves forward, and a send whose answer was lost is adopted by the message id in the path. ErrorCode 21610 (the recipient unsubscribed) suppresses the number account-wide as a STOP; 21614 (not a mobile number) cancels the contact's pending texts. ${SIGNED}`,
      params: Type.Object({ route: RouteParam, messageId: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1, description: 'our message id (Twilio echoes no metadata, so it rides in the URL)' }) }),
      consumes: FORM, body: Type.Unknown(),
      response: { 204: Type.Null(), 403: Detail, 404: Detail, 413: Detail },
    },
  }, async (request, reply) => {
    const v = await verified(request, reply, request.params.route);
    if (!v) return reply;
    const report = twilioTexts.parseStatus(v.form, { connectionId: v.route.connectionId, messageId: request.params.messageId }, deps.clock.now());
    const applied = report ? await applyTextStatus(deps.db, report) : null;
    if (applied && report?.errorCode) {
      await deps.db.transaction().execute(async (trx) => {
        const message = await trx.selectFrom('messages').select(['id', 'owner_id', 'contact_id', 'to_number', 'source']).where('id', '=', applied.id).executeTakeFirst();
        if (message) await applyTextErrorCode(trx, { ...message, id: Number(message.id), owner_id: Number(message.owner_id), contact_id: Number(message.contact_id) }, report.errorCode ?? null, deps.clock.now());
      });
    }
    return reply.code(204).send(null);
  });

  app.post('/inbound/:route', {
    schema: {
      tags: ['messaging'], operationId: 'receive_twilio_inbound_text', summary: 'Twilio inbound text',
      description: `A text to one of the account's numbers (point the number's or the Messaging Service's "A message comes in" webhook here; From and To may carry \`whatsapp:\`): threaded to the contact by its number and the campaign's, stored once per MessageSid, and acted on (STOP and equivalents or OptOutType=STOP suppress the number; START lifts a suppression a text made; "call me" queues a call; a reply stops pending call retries; the AI answers through the text sender). Answers empty TwiML: the answer, if any, is sent later. ${SIGNED}`,
      params: Type.Object({ route: RouteParam }),
      consumes: FORM, body: Type.Unknown(),
      response: { 200: Type.String({ description: 'TwiML (empty <Response/>)' }), 403: Detail, 404: Detail, 413: Detail },
    },
  }, async (request, reply) => {
    const v = await verified(request, reply, request.params.route);
    if (!v) return reply;
    const text = twilioTexts.parseInbound(v.form, v.route.connectionId, deps.clock.now());
    if (text) await receiveText(deps, text);
    return reply.type('text/xml; charset=utf-8').serializer((x) => x as string).send(twilioTexts.emptyTwiml);
  });
}

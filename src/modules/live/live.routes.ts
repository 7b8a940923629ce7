import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { Detail, ErrorResponses, Id, IdParams } from '../../http/schemas.ts';
import type { LiveEvent } from './live-events.repository.ts';
import { LiveCalls, LIVE_EVENTS_DESCRIPTION } from './live.schemas.ts';
import { listenToCall } from './listen/listen.service.ts';
import { grantedCampaigns, GRANTS_REFRESH_MS, inScope, liveCalls, replaySince, streamScope } from './live.service.ts';

const tags = ['live'];
const EventId = Type.String({ pattern: '^[0-9]{1,19}$', description: 'the id of the last event received (the SSE id)' });
// A browser that falls this far behind is dropped; it reconnects with Last-Event-ID and resumes.
const MAX_PENDING_SENDS = 2000;

// An event goes to every stream that follows it: its JSON is written once, not once per stream.
const serialized = new WeakMap<LiveEvent, string>();
const jsonOf = (event: LiveEvent) => {
  let json = serialized.get(event);
  if (json === undefined) serialized.set(event, (json = JSON.stringify({ id: event.id, type: event.type, ...event.data })));
  return json;
};
const passStrings = (data: unknown) => (typeof data === 'string' ? data : JSON.stringify(data));

/** GET /api/v1/live/events (server-sent events) and GET /api/v1/live/calls (the state to start from). */
export async function liveRoutes(app: App) {
  const { db, live } = app.deps;
  const deps = app.deps;

  app.get('/calls/:id/audio', {
    schema: {
      tags, operationId: 'listen_to_call', summary: 'Listen to a call in progress',
      description:
        'The call\'s audio as it happens: `audio/basic` (G.711 mu-law, 8 kHz, mono; 160 bytes are 20 ms), streamed until the call ends ' +
        'or the client goes. The service relays it: no vendor URL reaches the client. The owner, or a sub-user granted the call\'s campaign; ' +
        'another account\'s call is 403. Each listening is audited (`call.listened`). Sources: the simulator\'s calls are spoken from their ' +
        'live transcript turns (espeak-ng; 503 when it is not installed); our agent\'s calls on Twilio fork their media stream to the service; ' +
        'Vapi\'s calls are heard through the call\'s listen socket, which the service opens per listener (502 with the vendor\'s words when it ' +
        'refuses). 409 when the call is not in progress, has no vendor call yet, or runs on a vendor without live audio (Retell).',
      params: IdParams,
      produces: ['audio/basic'],
      response: { 200: { description: 'mu-law audio, streamed', content: { 'audio/basic': { schema: Type.String({ format: 'binary' }) } } }, 409: Detail, 502: Detail, 503: Detail, ...ErrorResponses },
    },
  }, async (request, reply) => {
    const audio = await listenToCall(deps, request.principal, request.params.id, request);
    request.raw.on('close', () => audio.close());
    return reply.type('audio/basic').header('cache-control', 'no-store').send(audio.stream as never);
  });

  app.get('/calls', {
    schema: {
      tags, operationId: 'list_live_calls', summary: 'Calls in progress, with their transcript so far',
      description:
        'The calls in progress the caller may see (newest first, up to 500; a sub-user only those of its granted campaigns), each with ' +
        'the transcript turns spoken so far, and `last_event_id`: follow `GET /live/events?last_event_id=` from it and nothing is missed.',
      querystring: Type.Object({ campaign_id: Type.Optional(Id) }),
      response: { 200: LiveCalls, ...ErrorResponses },
    },
  }, async (request) => liveCalls(db, request.principal, request.query.campaign_id ?? null));

  app.get('/events', {
    sse: { kind: 'only', serializer: passStrings },
    schema: {
      tags, operationId: 'follow_live_events', summary: 'Follow what happens, as it happens (server-sent events)',
      description: LIVE_EVENTS_DESCRIPTION,
      querystring: Type.Object({ campaign_id: Type.Optional(Id), last_event_id: Type.Optional(EventId) }),
      headers: Type.Object({ 'last-event-id': Type.Optional(EventId) }),
      produces: ['text/event-stream'],
      response: { 200: { description: 'An event stream (text/event-stream) that stays open', content: { 'text/event-stream': { schema: Type.String() } } }, ...ErrorResponses },
    },
  }, async (request, reply) => {
    const scope = await streamScope(db, request.principal, request.query.campaign_id ?? null);
    const lastId = request.headers['last-event-id'] ?? request.query.last_event_id ?? null;
    reply.sse.keepAlive();
    let pending = 0;
    let chain: Promise<void> = Promise.resolve();
    const send = (event: LiveEvent) => {
      if (++pending > MAX_PENDING_SENDS) {
        reply.sse.close();
        return;
      }
      chain = chain.then(() => reply.sse.send({ id: event.id, event: event.type, data: jsonOf(event) }))
        .catch(() => {}).finally(() => void pending--);
    };
    // While the missed events are read, the live ones wait; then each is sent once, in order.
    // The feed may also hand over, later, an event the replay read: the replayed ids are kept.
    let held: LiveEvent[] | null = lastId === null ? null : [];
    const replayed = new Set<string>();
    const unsubscribe = await live.subscribe({
      accepts: (event) => inScope(scope, event),
      send: (event) => {
        if (held) held.push(event);
        else if (!replayed.has(event.id)) send(event);
      },
    });
    const refresh = setInterval(() => {
      void grantedCampaigns(db, request.principal).then((granted) => { scope.granted = granted; }, () => {});
    }, GRANTS_REFRESH_MS);
    refresh.unref();
    reply.sse.onClose(() => {
      clearInterval(refresh);
      unsubscribe();
    });
    // Something is written before the handler returns, or Fastify would end the reply as an empty answer.
    await reply.sse.send({ event: 'ready', data: { scope: scope.campaignId === null ? 'account' : `campaign ${scope.campaignId}` } });
    if (lastId === null) return;
    const replay = await replaySince(db, scope, lastId);
    if (replay.resync) await reply.sse.send({ event: 'resync', data: { reason: 'events after your last id are no longer kept: reload the state, then follow again' } });
    else for (const event of replay.events) send(event);
    for (const event of replay.events) replayed.add(event.id);
    const waiting = held ?? [];
    held = null;
    for (const event of waiting) if (!replayed.has(event.id) && BigInt(event.id) > BigInt(lastId)) send(event);
  });
}

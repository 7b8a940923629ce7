import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from './helpers/dialer-harness.ts';
import { createAccount, createSubUser, type Account } from './helpers/factories.ts';
import { openSse, type SseEvent, type SseStream } from './helpers/sse-client.ts';
import { seed } from './helpers/seed.ts';
import { eventsServiceSink } from '../src/modules/dialer/call-events/provider-events.ts';
import { SIGNATURE_HEADER, signBody, webhookSecret } from '../src/voice/signature.ts';

/**
 * The live stream (GET /api/v1/live/events) over a real HTTP connection: simulated calls
 * dialled by the dialer tell their story as it happens, to whom may see it, and a browser that
 * reconnects misses nothing and receives nothing twice.
 */
let h: DialerHarness;
let base: string;
let bob: Account;
const streams: SseStream[] = [];

beforeAll(async () => {
  h = await dialerHarness();
  await h.t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.t.app.server.address() as AddressInfo).port}/api/v1/live`;
  bob = await createAccount(h.t);
});
afterAll(async () => {
  for (const s of streams) s.close();
  await h?.close();
});

async function follow(headers: Record<string, string>, query = '', extra: Record<string, string> = {}) {
  const stream = await openSse(`${base}/events${query}`, { ...headers, ...extra });
  streams.push(stream);
  return stream;
}

const ofCall = (events: SseEvent[], callId: number) => events.filter((e) => e.data?.call_id === callId);

/** Moves the simulated world a second at a time until `done` holds (the turns come due one by one). */
async function runUntil(done: () => boolean | Promise<boolean>, maxSec = 300) {
  for (let s = 0; s < maxSec && !(await done()); s++) await h.advance(1000);
}

async function dialOne(campaignId: number, contactData: Record<string, unknown> = { name: 'Ada', _sim: { persona: 'interested' } }) {
  const [contactId] = await h.contacts(campaignId, [usNumber()], { contact_data: contactData });
  await h.enqueue(campaignId);
  await h.round(campaignId);
  const [call] = await h.callsOf(contactId!);
  return { contactId: contactId!, callId: Number(call.id) };
}

describe('the live stream of an account', () => {
  it('tells a call as it happens: started, answered, each turn as it is spoken, then the end and the contact\'s new status', async () => {
    const c = await h.campaign({ title: 'Heat pumps' });
    const stream = await follow(h.account.headers);
    expect(stream.status).toBe(200);
    await stream.until((ev) => ev.some((e) => e.event === 'ready'));
    const { callId, contactId } = await dialOne(c);
    await stream.until((ev) => ofCall(ev, callId).some((e) => e.event === 'call.started'));
    expect(ofCall(stream.events, callId)[0]).toMatchObject({ event: 'call.started', data: { call_id: callId, campaign_id: c, contact_id: contactId, contact_name: 'Ada', direction: 'outbound', campaign_title: 'Heat pumps' } });

    // Turn by turn: some turns are shown while the call still runs.
    await runUntil(() => ofCall(stream.events, callId).filter((e) => e.event === 'call.turn').length >= 2);
    await stream.until((ev) => ofCall(ev, callId).filter((e) => e.event === 'call.turn').length >= 2);
    expect(ofCall(stream.events, callId).some((e) => e.event === 'call.ended')).toBe(false);
    expect((await h.callsOf(contactId))[0].status).toBe('in progress');

    await runUntil(() => ofCall(stream.events, callId).some((e) => e.event === 'call.ended'));
    await stream.until((ev) => ofCall(ev, callId).some((e) => e.event === 'call.ended'));
    const story = ofCall(stream.events, callId);
    const [call] = await h.callsOf(contactId);
    const turns = story.filter((e) => e.event === 'call.turn').map((e) => ({ role: e.data.role, text: e.data.text }));
    expect(turns).toEqual(call.call_data.transcript);
    expect(story.map((e) => e.event)).toEqual(['call.started', 'call.ringing', 'call.answered', ...turns.map(() => 'call.turn'), 'call.ended']);
    expect(story.at(-1)!.data).toMatchObject({ status: 'finished', action_status: 'interested', contact_status: (await h.contact(contactId)).status });
    // Ids increase along the stream: a browser resumes from the last one.
    const ids = story.map((e) => BigInt(e.id!));
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
  });

  it('shows a sub-user only its granted campaigns, another account nothing, and refuses their campaign filters', async () => {
    const granted = await h.campaign({ title: 'Granted' });
    const other = await h.campaign({ title: 'Not granted' });
    const sub = await createSubUser(h.t, h.account.id, [granted]);
    const subStream = await follow(sub.headers);
    const bobStream = await follow(bob.headers);
    await subStream.until((ev) => ev.some((e) => e.event === 'ready'));
    await bobStream.until((ev) => ev.some((e) => e.event === 'ready'));
    const seen = await dialOne(granted);
    const hidden = await dialOne(other);
    await runUntil(async () => (await h.callsOf(hidden.contactId))[0].status !== 'in progress' && (await h.callsOf(seen.contactId))[0].status !== 'in progress');
    await subStream.until((ev) => ofCall(ev, seen.callId).some((e) => e.event === 'call.ended'));
    expect(ofCall(subStream.events, hidden.callId)).toEqual([]);
    expect(subStream.events.every((e) => e.event === 'ready' || e.data.campaign_id === granted)).toBe(true);
    expect(bobStream.events.map((e) => e.event)).toEqual(['ready']);

    expect((await follow(sub.headers, `?campaign_id=${other}`)).status).toBe(403);
    expect((await follow(bob.headers, `?campaign_id=${granted}`)).status).toBe(403);
    expect((await follow(h.account.headers, '?campaign_id=999999999')).status).toBe(404);
    expect((await follow({}, '')).status).toBe(401);
    expect((await follow(h.account.headers, '?last_event_id=abc')).status).toBe(422);
  });

  it('resumes from Last-Event-ID: what happened while away comes first, then the live events, none twice', async () => {
    const c = await h.campaign({ title: 'Resume' });
    const first = await follow(h.account.headers, `?campaign_id=${c}`);
    await first.until((ev) => ev.some((e) => e.event === 'ready'));
    const one = await dialOne(c);
    await first.until((ev) => ofCall(ev, one.callId).some((e) => e.event === 'call.started'));
    const lastSeen = first.events.at(-1)!.id!;
    first.close();

    // Away while the call is spoken and ends, and a second call starts.
    await runUntil(async () => (await h.callsOf(one.contactId))[0].status !== 'in progress');
    const two = await dialOne(c);
    const again = await follow(h.account.headers, `?campaign_id=${c}`, { 'last-event-id': lastSeen });
    await again.until((ev) => ofCall(ev, two.callId).some((e) => e.event === 'call.started'));
    await runUntil(async () => (await h.callsOf(two.contactId))[0].status !== 'in progress');
    await again.until((ev) => ofCall(ev, two.callId).some((e) => e.event === 'call.ended'));

    const ids = again.events.flatMap((e) => (e.id === null ? [] : [e.id]));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => BigInt(id) > BigInt(lastSeen))).toBe(true);
    // Together, what was seen before and what was sent on resuming is the whole story of the first call, once.
    const before = ofCall(first.events, one.callId);
    const after = ofCall(again.events, one.callId);
    expect(after.length).toBeGreaterThan(0);
    const story = [...before, ...after].map((e) => e.event);
    const transcript = (await h.callsOf(one.contactId))[0].call_data.transcript;
    expect(story).toEqual(['call.started', 'call.ringing', 'call.answered', ...transcript.map(() => 'call.turn'), 'call.ended']);
  });

  it('lists the calls in progress with their transcript so far, and an id to follow from without a gap', async () => {
    const c = await h.campaign({ title: 'Board' });
    const { callId } = await dialOne(c);
    await runUntil(async () => {
      const res = await h.t.request({ method: 'GET', url: `/api/v1/live/calls?campaign_id=${c}`, headers: h.account.headers });
      return res.json().calls[0]?.transcript.length >= 2;
    });
    const res = await h.t.request({ method: 'GET', url: `/api/v1/live/calls?campaign_id=${c}`, headers: h.account.headers });
    expect(res.statusCode).toBe(200);
    const board = res.json();
    expect(board.calls).toHaveLength(1);
    expect(board.calls[0]).toMatchObject({ id: callId, campaign_id: c, contact_name: 'Ada', direction: 'outbound', answered: true });
    expect(board.calls[0].transcript[0].role).toBe('assistant');
    const tail = await follow(h.account.headers, `?campaign_id=${c}&last_event_id=${board.last_event_id}`);
    expect(tail.status).toBe(200);
    await runUntil(() => ofCall(tail.events, callId).some((e) => e.event === 'call.ended'));
    await tail.until((ev) => ofCall(ev, callId).some((e) => e.event === 'call.ended'));
    const [call] = await h.t.deps.db.selectFrom('calls').select('call_data').where('id', '=', callId).execute();
    const ids = tail.events.flatMap((e) => (e.id === null ? [] : [e.id]));
    expect(new Set(ids).size).toBe(ids.length);
    const told = board.calls[0].transcript.length + ofCall(tail.events, callId).filter((e) => e.event === 'call.turn').length;
    expect(told).toBe((call!.call_data as { transcript: unknown[] }).transcript.length);
    expect((await h.t.request({ method: 'GET', url: `/api/v1/live/calls?campaign_id=${c}`, headers: bob.headers })).statusCode).toBe(403);
  });

  it('tells an operator\'s pause and resume of a campaign', async () => {
    const c = await h.campaign({ title: 'Pause me' });
    const stream = await follow(h.account.headers, `?campaign_id=${c}`);
    await stream.until((ev) => ev.some((e) => e.event === 'ready'));
    for (const is_paused of [true, false]) {
      const res = await h.t.request({ method: 'PUT', url: `/api/v1/campaigns/${c}`, headers: h.account.headers, payload: { is_paused } });
      expect(res.statusCode, res.body).toBe(200);
    }
    await stream.until((ev) => ev.some((e) => e.event === 'campaign.resumed'));
    expect(stream.events.filter((e) => e.event.startsWith('campaign.')).map((e) => [e.event, e.data.reason, e.data.title])).toEqual([
      ['campaign.paused', 'operator', 'Pause me'], ['campaign.resumed', 'operator', 'Pause me'],
    ]);
  });

  it('never shows a vendor\'s turn for a call of another route (a signed event naming someone else\'s call)', async () => {
    const { campaigns: [campaign], contacts: [contact] } = await seed(h.t.deps.db, {
      campaigns: [{ owner: { id: bob.id }, title: 'Bob\'s' }],
      contacts: [{ campaign: 0, phone_number: usNumber(), status: 'in progress' }],
    });
    const { calls: [call] } = await seed(h.t.deps.db, { calls: [{ contact: contact!, status: 'in progress', provider: 'vapi' }] });
    const stream = await follow(bob.headers);
    await stream.until((ev) => ev.some((e) => e.event === 'ready'));
    const body = JSON.stringify({ events: [{ id: 'forged-1', type: 'turn', call_id: 'x', metadata: { call_id: call!.id }, timestamp: new Date().toISOString(), turn: { role: 'user', text: 'planted' } }] });
    await eventsServiceSink(h.t.deps)({ path: '/api/v1/voice/sim/events', body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(webhookSecret(h.t.config), body, h.clock.now()) } });
    const stored = await h.t.deps.db.selectFrom('live_events').select('id').where('call_id', '=', call!.id).execute();
    expect(stored).toEqual([]);
    void campaign;
  });
});

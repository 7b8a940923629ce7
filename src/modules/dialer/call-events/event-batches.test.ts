import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { dialerHarness, usNumber, type DialerHarness } from '../../../../test/helpers/dialer-harness.ts';
import { SIGNATURE_HEADER, signBody, webhookSecret } from '../../../voice/signature.ts';
import type { StartCallRequest, VoiceProvider } from '../../../voice/provider.ts';
import { dialDueContacts } from '../outbound/outbound.service.ts';
import { applyCallEvents } from './call-events.service.ts';
import { insertCalls } from '../outbound/call-rows.ts';
import { markContactsCalling } from '../../contact-lifecycle/contact-lifecycle.repository.ts';
import type { CallEvent } from '../../../voice/provider.ts';

// A delivery of several events must give the same call row as the same events delivered one
// at a time (each case below runs both ways and compares), and a failing or odd delivery
// must not change that.
let h: DialerHarness;
beforeAll(async () => {
  h = await dialerHarness('2030-01-07T15:00:00Z');
});
afterAll(async () => h?.close());

const MIN = 60_000;
const post = (events: unknown[]) => {
  const body = JSON.stringify({ events });
  return h.t.request({ method: 'POST', url: '/api/v1/voice/sim/events', payload: body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(webhookSecret(h.t.config), body, h.clock.now()) } });
};
async function startOne() {
  const c = await h.campaign();
  const [id] = await h.contacts(c, [usNumber()], { contact_data: { _sim: { status: 'finished', duration: 600 } } });
  await h.enqueue(c);
  expect(await h.round(c)).toBe(1);
  const [call] = await h.callsOf(id!);
  return { id: id!, call };
}
let seq = 0;
const ev = (call: { id: number }, type: string, atMs: number, extra: Record<string, unknown> = {}) =>
  ({ id: `batch-${++seq}`, type, call_id: `sim-${call.id}`, metadata: { call_id: call.id }, timestamp: new Date(h.clock.now().getTime() + atMs).toISOString(), ...extra });

/** Applies the events made by `make` as one delivery to one call and one at a time to another; returns both rows. */
async function bothWays(make: (call: { id: number }) => unknown[][]) {
  const together = await startOne();
  for (const group of make(together.call)) expect((await post(group.flat())).statusCode).toBe(200);
  const apart = await startOne();
  for (const group of make(apart.call)) for (const e of group) expect((await post([e])).statusCode).toBe(200);
  const pick = (r: any) => ({ status: r.status, record_url: r.record_url, action_status: r.action_status, call_ended_by: r.call_ended_by, call_duration: r.call_duration });
  return { together: pick((await h.callsOf(together.id))[0]), apart: pick((await h.callsOf(apart.id))[0]) };
}

describe('a delivery of several events', () => {
  it('takes terminal fields only from end events, not from a recording delivered with them', async () => {
    const { together, apart } = await bothWays((call) => [
      [ev(call, 'ended', 0, { status: 'finished', duration: 40, cost: 0.1 })],
      [ev(call, 'recording', 1000, { record_url: 'https://rec.example/1', action_status: 'interested', ended_by: 'HUMAN' }), ev(call, 'ended', 2000, { status: 'finished', duration: 40 })],
    ]);
    expect(together).toEqual(apart);
    expect(together).toMatchObject({ action_status: null, call_ended_by: null, record_url: 'https://rec.example/1' });
  });

  it('applies a recording that happened before the end before it', async () => {
    const { together, apart } = await bothWays((call) => [[
      ev(call, 'recording', -2000, { record_url: 'https://rec.example/early' }),
      ev(call, 'ended', 0, { status: 'finished', duration: 40, record_url: 'https://rec.example/end' }),
    ]]);
    expect(together).toEqual(apart);
    expect(together.record_url).toBe('https://rec.example/early');
  });

  it('lets the real end overwrite what an earlier end event without a status filled', async () => {
    const { together, apart } = await bothWays((call) => [[
      ev(call, 'ended', -2000, { action_status: 'scheduled', ended_by: 'HUMAN', duration: 5 }),
      ev(call, 'ended', 0, { status: 'finished', duration: 40 }),
    ]]);
    expect(together).toEqual(apart);
    expect(together).toMatchObject({ status: 'finished', action_status: null, call_ended_by: null, call_duration: 40 });
  });

  it('keeps time order when one bad event sends the delivery down the one-by-one path', async () => {
    const a = await startOne();
    const other = await startOne();
    const res = await post([
      ev(a.call, 'ended', 10_000, { status: 'voicemail', duration: 10 }),
      ev(a.call, 'ended', 0, { status: 'finished', duration: 40 }),
      ev(other.call, 'ended', 0, { status: 'finished', duration: 1.5 }), // not an integer: the database refuses it
    ]);
    expect(res.statusCode).toBe(500);
    expect((await h.callsOf(a.id))[0].status).toBe('finished');
  });
});

describe('the provider\'s call id', () => {
  it('is in call_data and on the row after the dialer itself ends a call no event came for', async () => {
    const c = await h.campaign();
    const [id] = await h.contacts(c, [usNumber()], { contact_data: { _sim: { lost: true } } });
    await h.enqueue(c);
    expect(await h.round(c)).toBe(1);
    const [call] = await h.callsOf(id!);
    await h.advance(h.t.deps.voice.capabilities.reconcileAfterMs + MIN);
    await h.round();
    const [row] = await h.callsOf(id!);
    expect(row).toMatchObject({ status: 'failed', external_session_id: `sim-${call.id}` });
    expect(row.call_data.provider_call_id).toBe(`sim-${call.id}`);
  });

  it('is saved for every other call of a round when one call is deleted while it is dialled', async () => {
    const real = h.t.deps.voice;
    const c = await h.campaign();
    await h.contacts(c, [usNumber(), usNumber(), usNumber()], { contact_data: { _sim: { status: 'finished', duration: 600 } } });
    await h.enqueue(c);
    let deleted = false;
    const wrapper = Object.create(real) as VoiceProvider;
    wrapper.startCall = async (req: StartCallRequest) => {
      const r = await real.startCall(req);
      if (!deleted) {
        deleted = true;
        await sql`DELETE FROM contacts WHERE id = (SELECT contact_id FROM calls WHERE id = ${req.callId})`.execute(h.t.deps.db);
      }
      return r;
    };
    expect((await dialDueContacts({ deps: { ...h.t.deps, voice: wrapper } })).started).toBe(3);
    const { rows } = await sql<{ id: number; p: string | null }>`
      SELECT k.id, r.provider_call_id AS p FROM calls k LEFT JOIN call_provider_refs r ON r.call_id = k.id WHERE k.campaign_id = ${c} ORDER BY k.id`.execute(h.t.deps.db);
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r.p).toBe(`sim-${r.id}`);
  });
});

describe('concurrent deliveries', () => {
  // Two deliveries at once, one pausing campaign Q (insufficient funds) and both refreshing the
  // usage of P and Q: campaign rows must be written in one order, or they deadlock.
  it.skipIf(!process.env.TEST_DATABASE_URL)('never deadlock on campaign rows when one pauses a campaign', async () => {
    const db = h.t.deps.db;
    const limited = { limit_unit: 'cost', limit_value: 1e9 } as const;
    const [p, q] = [await h.campaign(limited), await h.campaign(limited)];
    const live = async (campaign: number, n: number) => {
      const ids = await h.contacts(campaign, Array.from({ length: n }, () => usNumber()));
      return db.transaction().execute(async (trx) => {
        const rows = await insertCalls(trx, ids.map((id, i) => ({ contactId: id, ownerId: h.account.id, campaignId: campaign, from: null, to: `+1646555${String(campaign * 1000 + i).slice(-4)}`, title: 't', contactData: '{}', callData: '{}', provider: 'sim', connectionId: null })), new Date(h.clock.now().getTime() - MIN));
        await markContactsCalling(trx, rows.map((r) => r.contact_id));
        return rows.map((r) => r.id);
      });
    };
    const N = 20;
    const [pCalls, qCalls] = [await live(p, 2 * N), await live(q, 2 * N)];
    const end = (callId: number, status: 'finished' | 'insufficient funds'): CallEvent => ({ eventId: `dl-${callId}`, callId, providerCallId: `x-${callId}`, type: 'ended', at: h.clock.now(), status, durationSec: 10, cost: 0.01 });
    const deadlocks = async () => {
      await sql`SELECT pg_stat_clear_snapshot()`.execute(db);
      return Number((await sql<{ n: string }>`SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()`.execute(db)).rows[0]!.n);
    };
    const before = await deadlocks();
    for (let i = 0; i < N; i++) {
      const [a, b] = await Promise.all([
        applyCallEvents({ deps: h.t.deps, route: { provider: 'sim', connectionId: null }, events: [end(pCalls[2 * i]!, 'finished'), end(qCalls[2 * i]!, 'insufficient funds')] }),
        applyCallEvents({ deps: h.t.deps, route: { provider: 'sim', connectionId: null }, events: [end(pCalls[2 * i + 1]!, 'finished'), end(qCalls[2 * i + 1]!, 'finished')] }),
      ]);
      expect(a.applied + b.applied).toBe(4);
    }
    // The statistics collector reports a little after the fact.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await deadlocks()).toBe(before);
  });
});

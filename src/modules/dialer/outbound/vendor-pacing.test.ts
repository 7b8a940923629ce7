import { afterEach, describe, expect, it } from 'vitest';
import { dialerHarness, liveCalls, usNumber, type DialerHarness } from '../../../../test/helpers/dialer-harness.ts';
import type { VoiceProvider } from '../../../voice/provider.ts';
import { dialDueContacts } from './outbound.service.ts';

/**
 * A vendor's own limits per route: calls in progress at once and calls started per second,
 * whatever the campaigns allow. The simulator stands in for the vendor with a pacing of its own.
 */
let h: DialerHarness;
afterEach(async () => h?.close());

const paced = (pacing: { maxConcurrent: number; callsPerSecond: number }) => (sim: VoiceProvider) =>
  Object.assign(Object.create(sim) as VoiceProvider, { pacing });

const longCalls = { contact_data: { _sim: { status: 'finished', duration: 600 } } };

describe("a vendor route's pacing", () => {
  it('never has more calls in progress than the route allows, across campaigns, and leaves the others due', async () => {
    h = await dialerHarness(undefined, {}, { voice: paced({ maxConcurrent: 3, callsPerSecond: 0 }) });
    const campaigns = [await h.campaign(), await h.campaign()];
    const ids: number[] = [];
    for (const c of campaigns) {
      ids.push(...await h.contacts(c, Array.from({ length: 4 }, () => usNumber()), longCalls));
      await h.enqueue(c);
    }
    await h.round();
    expect(await liveCalls(h.t)).toBe(3);
    await h.round();
    expect(await liveCalls(h.t)).toBe(3);
    const waiting = await Promise.all(ids.map((id) => h.contact(id)));
    const held = waiting.filter((c) => c.status !== 'in progress');
    expect(held).toHaveLength(5);
    for (const c of held) expect(['added_to_queue', 'call_scheduled']).toContain(c.status);
    // Calls end: the freed lines are taken by the waiting contacts, three at a time.
    await h.advance(11 * 60_000);
    await h.round();
    expect(await liveCalls(h.t)).toBe(3);
  });

  it('starts no more calls per second than the route allows, and the rest as tokens come', async () => {
    h = await dialerHarness(undefined, {}, { voice: paced({ maxConcurrent: 0, callsPerSecond: 2 }) });
    const c = await h.campaign();
    await h.contacts(c, Array.from({ length: 7 }, () => usNumber()), longCalls);
    await h.enqueue(c);
    expect((await dialDueContacts({ deps: h.t.deps })).started).toBe(2);
    expect((await dialDueContacts({ deps: h.t.deps })).started).toBe(0);
    h.clock.advance(1_000);
    expect((await dialDueContacts({ deps: h.t.deps })).started).toBe(2);
    h.clock.advance(500);
    expect((await dialDueContacts({ deps: h.t.deps })).started).toBe(1);
    const held = await h.t.deps.db.selectFrom('contacts').select(['next_action_reason', 'next_action_time']).where('campaign_id', '=', c).where('status', '!=', 'in progress').execute();
    expect(held.length).toBe(2);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('holds the cap when many rounds dial at once', async () => {
    h = await dialerHarness(undefined, { DB_POOL_SIZE: '12' }, { voice: paced({ maxConcurrent: 5, callsPerSecond: 0 }) });
    for (let i = 0; i < 6; i++) {
      const c = await h.campaign();
      await h.contacts(c, Array.from({ length: 6 }, () => usNumber()), longCalls);
      await h.enqueue(c);
    }
    const rounds = await Promise.all(Array.from({ length: 8 }, () => dialDueContacts({ deps: h.t.deps })));
    expect(rounds.reduce((n, r) => n + r.started, 0)).toBe(5);
    expect(await liveCalls(h.t)).toBe(5);
  });
});

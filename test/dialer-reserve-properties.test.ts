import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from './helpers/dialer-harness.ts';
import { callAroundTheClock } from './helpers/factories.ts';
import { propertySeed, SIM_STATUSES } from './helpers/reach-scenario.ts';
import { finishCall } from '../src/modules/dialer/call-events/call-events.service.ts';

/**
 * The account's reserve for inbound calls under random worlds: random caps and reserves, outbound
 * campaigns with their own limits, callers arriving between rounds, calls of random lengths and
 * outcomes. Judged from the recorded call intervals, not from the dialer's own count: at every
 * outbound start, outbound_live + max(inbound_live, reserve) <= max. (Beside dialer-properties.test.ts,
 * which is at its size: the same harness and seeds.)
 */
let h: DialerHarness;
beforeAll(async () => {
  h = await dialerHarness('2030-01-07T15:00:00Z');
  await callAroundTheClock(h.t.deps.db, h.account.id);
});
afterAll(async () => h?.close());

const INBOUND_NUMBER = '+12125550166';
const call = fc.record({ status: fc.constantFrom(...SIM_STATUSES), duration: fc.integer({ min: 5, max: 900 }) });

const scenario = fc.integer({ min: 1, max: 6 }).chain((max) => fc.record({
  max: fc.constant(max),
  reserve: fc.integer({ min: 0, max }),
  campaigns: fc.array(fc.record({ limit: fc.integer({ min: 0, max: 4 }), contacts: fc.array(call, { minLength: 1, maxLength: 6 }) }), { minLength: 1, maxLength: 3 }),
  // Per step: callers arriving before the round (each with its call; one a step on average, so outbound calls get room too), then minutes to move on.
  steps: fc.array(fc.record({ arrivals: fc.array(call, { maxLength: 2 }), minutes: fc.integer({ min: 1, max: 15 }) }), { minLength: 3, maxLength: 10 }),
  // Now and then the owner changes the setting mid-run (a lower cap ends no call).
  change: fc.option(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 6 }), fc.nat()), { nil: null, freq: 3 }),
}));

interface Interval { id: number; call_type: string; start_time: Date; end_time: Date | null }

describe('the reserve for inbound calls under random worlds', () => {
  it('never starts an outbound call that makes outbound_live + max(inbound_live, reserve) exceed the account\'s max', async () => {
    const db = h.t.deps.db;
    const tally = { outbound: 0, inbound: 0, atCap: 0, held: 0 };
    let inboundCampaign = 0;
    await fc.assert(fc.asyncProperty(scenario, async (s) => {
      const since = h.clock.now();
      // [from, max, reserve]: the setting in force from that instant (outbound starts are judged by it).
      const settings: [number, number, number][] = [[since.getTime(), s.max, s.reserve]];
      const put = async (max: number, reserve: number) => {
        const res = await h.t.request({ method: 'PUT', url: '/api/v1/compliance/capacity', headers: h.account.headers, payload: { max_concurrent_calls: max, reserved_inbound_calls: reserve } });
        expect(res.statusCode, res.body).toBe(200);
      };
      await put(s.max, s.reserve);
      inboundCampaign ||= await h.campaign({ campaign_type: 'Inbound', campaign_phone: INBOUND_NUMBER });
      const campaigns: number[] = [];
      for (const c of s.campaigns) {
        const id = await h.campaign({ concurrent_call_limit: c.limit });
        for (const k of c.contacts) await h.contacts(id, [usNumber()], { contact_data: { _sim: k } });
        await h.enqueue(id);
        campaigns.push(id);
      }
      for (const [i, step] of s.steps.entries()) {
        for (const k of step.arrivals) {
          const from = usNumber();
          await h.contacts(inboundCampaign, [from], { contact_data: { _sim: k } });
          const res = await h.t.request({ method: 'POST', url: '/api/v1/voice/sim/inbound', headers: h.account.headers, payload: { from, to: INBOUND_NUMBER } });
          expect(res.statusCode, `an inbound call is never refused for the cap: ${res.body}`).toBe(200);
        }
        if (s.change && s.change[0] % s.steps.length === i) {
          const max = s.change[1];
          const reserve = s.change[2] % (max + 1);
          await put(max, reserve);
          settings.push([h.clock.now().getTime(), max, reserve]);
        }
        await h.round();
        tally.held += Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM contacts WHERE campaign_id = ANY(${campaigns}::bigint[]) AND next_action_code = 'account_concurrency'`.execute(db)).rows[0]!.n);
        await h.advance(step.minutes * 60_000);
      }

      const calls = (await sql<Interval>`
        SELECT id, call_type, start_time, end_time FROM calls WHERE owner_id = ${h.account.id} AND start_time >= ${since} ORDER BY id`.execute(db)).rows;
      // Calls of earlier runs still live would count too; each run ends its own (below).
      const liveAt = (t: number, type: string) => calls.filter((k) => k.call_type === type && k.start_time.getTime() <= t && (k.end_time === null || k.end_time.getTime() > t)).length;
      for (const o of calls.filter((k) => k.call_type === 'outbound')) {
        const t = o.start_time.getTime();
        const [, max, reserve] = settings.filter(([from]) => from <= t).at(-1)!;
        const out = liveAt(t, 'outbound');
        const inb = liveAt(t, 'inbound');
        expect(out + Math.max(inb, reserve), `outbound call ${o.id} at ${o.start_time.toISOString()}: ${out} outbound, ${inb} inbound, max ${max}, reserve ${reserve}`).toBeLessThanOrEqual(max);
        if (out + Math.max(inb, reserve) === max) tally.atCap++;
      }
      tally.outbound += calls.filter((k) => k.call_type === 'outbound').length;
      tally.inbound += calls.filter((k) => k.call_type === 'inbound').length;
      // What this world left running must not leak into the next one.
      await db.updateTable('campaigns').set({ is_paused: true }).where('id', 'in', campaigns).execute();
      const live = await db.selectFrom('calls').select('id').where('owner_id', '=', h.account.id).where('status', '=', 'in progress').execute();
      for (const { id } of live) await finishCall({ deps: h.t.deps, callId: id, outcome: { status: 'finished', endedReason: 'end of a property run' } });
      await h.advance(60_000);
    }), { numRuns: Number(process.env.PROPERTY_RUNS ?? 12), seed: propertySeed('reserve properties'), endOnFailure: !process.env.PROPERTY_SHRINK });
    console.log('reserve properties:', JSON.stringify(tally));
    // Not vacuous: calls of both kinds, outbound starts that filled the account to its cap.
    expect(tally.outbound).toBeGreaterThan(0);
    expect(tally.inbound).toBeGreaterThan(0);
    expect(tally.atCap).toBeGreaterThan(0);
  }, 240_000);
});

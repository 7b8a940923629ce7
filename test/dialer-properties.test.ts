import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from './helpers/dialer-harness.ts';
import { isOpen } from '../src/modules/contact-lifecycle/calling-window.ts';
import { windowRuleFor } from '../src/modules/contact-lifecycle/contact-window.ts';
import { campaignShape, contactShape, propertySeed, quietHours } from './helpers/reach-scenario.ts';

let h: DialerHarness;
beforeAll(async () => {
  h = await dialerHarness('2030-03-09T12:00:00Z'); // the US DST change falls inside the runs
});
afterAll(async () => h?.close());

const scenario = fc.record({
  campaigns: fc.array(campaignShape, { minLength: 1, maxLength: 2 }),
  contacts: fc.array(contactShape, { minLength: 2, maxLength: 6 }),
  steps: fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 4, maxLength: 10 }),
  // The law on top: the account's quiet hours and caps, and the shared number suppressed mid-run.
  quiet: quietHours,
  caps: fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 3 })),
  suppressAfterStep: fc.option(fc.integer({ min: 0, max: 9 }), { nil: null }),
});

describe('dialer invariants under random schedules, limits and outcomes', () => {
  it('never calls outside the window or the quiet hours, over a limit or a cap, past max attempts, a suppressed number, or one contact twice at once', async () => {
    await fc.assert(fc.asyncProperty(scenario, async (s) => {
      const shared = usNumber();
      const clock = (hours: number) => `${String(hours).padStart(2, '0')}:00`;
      const settings = { quiet_hours_from: clock(s.quiet[0]), quiet_hours_to: clock(s.quiet[1]), max_calls_per_day: s.caps[0], max_calls_per_week: s.caps[0] + s.caps[1] };
      const put = await h.t.request({ method: 'PUT', url: '/api/v1/compliance/settings', headers: h.account.headers, payload: settings });
      expect(put.statusCode, put.body).toBe(200);
      let suppressedAt: Date | null = null;
      const ids: { campaign: number; limit: number; maxAttempts: number | null; contacts: number[] }[] = [];
      for (const c of s.campaigns) {
        const campaign = await h.campaign({
          concurrent_call_limit: c.limit, max_call_attempts: c.maxAttempts, call_interval: c.interval,
          call_allowed_from_time: c.window?.[0] ?? null, call_allowed_to_time: c.window?.[1] ?? null,
        });
        const contacts: number[] = [];
        for (const k of s.contacts) {
          const [id] = await h.contacts(campaign, [k.shared ? shared : usNumber()], {
            timezone: c.zone, contact_data: { _sim: { status: k.status, duration: k.duration } },
          }).catch(async () => h.contacts(campaign, [usNumber()], { timezone: c.zone, contact_data: { _sim: { status: k.status, duration: k.duration } } }));
          contacts.push(id!);
        }
        await h.enqueue(campaign);
        ids.push({ campaign, limit: c.limit, maxAttempts: c.maxAttempts, contacts });
      }
      for (const [step, minutes] of s.steps.entries()) {
        await h.round();
        if (step === s.suppressAfterStep) {
          suppressedAt = h.clock.now();
          const added = await h.t.request({ method: 'POST', url: '/api/v1/suppressions/', headers: h.account.headers, payload: { phone_number: shared } });
          expect(added.statusCode, added.body).toBe(200);
        }
        for (const c of ids) {
          const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM calls WHERE campaign_id = ${c.campaign} AND status = 'in progress'`.execute(h.t.deps.db);
          if (c.limit > 0) expect(rows[0]!.n).toBeLessThanOrEqual(c.limit);
        }
        const twice = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (SELECT contact_id FROM calls WHERE status = 'in progress' GROUP BY contact_id HAVING count(*) > 1) x`.execute(h.t.deps.db);
        expect(twice.rows[0]!.n).toBe(0);
        const sameNumber = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (SELECT to_number FROM calls WHERE status = 'in progress' AND owner_id = ${h.account.id} GROUP BY to_number HAVING count(*) > 1) x`.execute(h.t.deps.db);
        expect(sameNumber.rows[0]!.n).toBe(0);
        await h.advance(minutes * 60_000);
      }
      for (const c of ids) {
        const campaign = await h.t.deps.db.selectFrom('campaigns').select(['call_allowed_from_time', 'call_allowed_to_time', 'work_schedule'])
          .select([sql<string | null>`call_allowed_from_time::text`.as('call_allowed_from_time'), sql<string | null>`call_allowed_to_time::text`.as('call_allowed_to_time')])
          .where('id', '=', c.campaign).executeTakeFirstOrThrow();
        for (const contactId of c.contacts) {
          const contact = await h.contact(contactId);
          const calls = await h.callsOf(contactId);
          expect(calls.length).toBe(contact.calls_attempts);
          expect(contact.calls_attempts).toBeLessThanOrEqual(c.maxAttempts ?? 1);
          const rule = await windowRuleFor(campaign, contact, [s.quiet[0] * 3600, s.quiet[1] * 3600]);
          for (const call of calls) expect(isOpen(rule, call.start_time)).toBe(true);
        }
      }
      // The shared number: never dialled after its suppression, never over a cap in any rolling window.
      const starts = (await h.t.deps.db.selectFrom('calls').select('start_time').where('to_number', '=', shared).where('call_type', '=', 'outbound').orderBy('start_time').execute())
        .map((c) => new Date(c.start_time!).getTime());
      if (suppressedAt) expect(starts.filter((t) => t > suppressedAt!.getTime())).toEqual([]);
      for (const [i, t] of starts.entries()) {
        expect(starts.slice(0, i + 1).filter((u) => u > t - 86_400_000).length).toBeLessThanOrEqual(settings.max_calls_per_day);
        expect(starts.slice(0, i + 1).filter((u) => u > t - 7 * 86_400_000).length).toBeLessThanOrEqual(settings.max_calls_per_week);
      }
    }), { numRuns: 12, seed: propertySeed('dialer properties') });
    await h.t.request({ method: 'PUT', url: '/api/v1/compliance/settings', headers: h.account.headers, payload: { quiet_hours_from: '00:00', quiet_hours_to: '24:00', max_calls_per_day: 1000, max_calls_per_week: 1000 } });
  });
});

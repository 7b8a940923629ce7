import fc from 'fast-check';
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from './helpers/dialer-harness.ts';
import { callAroundTheClock } from './helpers/factories.ts';
import { campaignShape, contactShape, hhmm, propertySeed, quietHours, workSchedule } from './helpers/reach-scenario.ts';
import { isOpen } from '../src/modules/contact-lifecycle/calling-window.ts';
import { windowRuleFor } from '../src/modules/contact-lifecycle/contact-window.ts';
import { receiveText } from '../src/modules/messaging/inbound.ts';
import { insertMessageJobs } from '../src/modules/messaging/message-jobs.repository.ts';
import { MESSAGING_DEFAULTS } from '../src/modules/messaging/messaging-defaults.ts';
import { runTextRound } from '../src/modules/messaging/text-sender.worker.ts';
import type { TextProvider } from '../src/messaging/text-channel.ts';

/**
 * The reach law under random worlds, on one harness: the dialer's calls, then the texts sent
 * beside them (the second property).
 */
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

/**
 * Texts: the dialer's random worlds with texts on top: calls end and queue follow-ups, operators queue
 * texts at random times, the account's text caps and quiet hours are random, numbers are
 * suppressed mid-run and people answer (STOP among the answers). The vendor records each send
 * with the clock at the moment it is asked to send: that is what the law is judged on.
 */
const DAY = 86_400_000;
const CAMPAIGN_PHONE = '+12125550100'; // the harness's campaigns text from it
// STOP one answer in six; the others want an AI reply ("call me" also queues a call).
const ANSWERS = ['STOP', 'What is this about?', 'Please call me tomorrow', 'ok thanks', 'How much is it?', 'Who is this?'] as const;
/** null four times in five: a suppression or a schedule now and then, not in every world. */
const rarely = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

const textScenario = fc.record({
  campaigns: fc.array(fc.record({
    shape: campaignShape,
    schedule: rarely(workSchedule),
    autoTexts: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    maxPerContact: fc.integer({ min: 0, max: 3 }),
    delayMinutes: fc.integer({ min: 0, max: 240 }),
    maxReplies: fc.integer({ min: 0, max: 2 }),
  }), { minLength: 1, maxLength: 2 }),
  contacts: fc.array(contactShape, { minLength: 2, maxLength: 6 }),
  quiet: quietHours,
  textCaps: fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 3 })),
  // Per step: minutes to move on, an operator's text (to contact i, due in m minutes), a suppression, an answer.
  steps: fc.array(fc.record({
    minutes: fc.integer({ min: 1, max: 600 }),
    manual: fc.option(fc.tuple(fc.nat(), fc.integer({ min: -30, max: 900 })), { nil: null }),
    suppress: rarely(fc.nat()),
    answer: fc.option(fc.tuple(fc.nat(), fc.constantFrom(...ANSWERS)), { nil: null, freq: 2 }),
  }), { minLength: 6, maxLength: 14 }),
});

interface Send { messageId: number; to: string; at: number }

describe('text sender invariants under random schedules, caps, suppressions and answers', () => {
  it('never texts a suppressed or opted-out number, outside the window or the quiet hours, over a cap, past max per contact; counts every attempt', async () => {
    const db = h.t.deps.db;
    const sends: Send[] = [];
    // The outside world: accepts every text, remembers when it was asked.
    const vendor: TextProvider = {
      name: 'sim',
      send: async (input) => {
        sends.push({ messageId: input.messageId, to: input.to, at: h.clock.now().getTime() });
        return { kind: 'accepted', providerMessageId: `SMprop${input.messageId}`, status: 'queued', cost: null };
      },
    };
    const deps = { ...h.t.deps, texts: { ...h.t.deps.texts, sim: vendor } };
    let inbound = 0;
    // Every reason the law gave a job, once per job: proof the runs met each rule, not only sent.
    const holds = new Set<string>();
    const textRound = async () => {
      await runTextRound(deps, { limit: 500 });
      for (const j of await db.selectFrom('message_jobs').select(['id', 'reason']).where('reason', 'is not', null).execute()) holds.add(`${j.id} ${j.reason}`);
    };

    await fc.assert(fc.asyncProperty(textScenario, async (s) => {
      const runStart = sends.length;
      const shared = usNumber();
      const caps = { perDay: s.textCaps[0], perWeek: s.textCaps[0] + s.textCaps[1] };
      const put = await h.t.request({
        method: 'PUT', url: '/api/v1/compliance/settings', headers: h.account.headers,
        payload: { quiet_hours_from: hhmm(s.quiet[0]), quiet_hours_to: hhmm(s.quiet[1]), max_calls_per_day: 1000, max_calls_per_week: 1000, max_texts_per_day: caps.perDay, max_texts_per_week: caps.perWeek },
      });
      expect(put.statusCode, put.body).toBe(200);

      const contacts: { id: number; phone: string; zone: string; campaign: number; maxPerContact: number; maxReplies: number }[] = [];
      const campaigns: number[] = [];
      for (const c of s.campaigns) {
        const campaign = await h.campaign({
          concurrent_call_limit: c.shape.limit, max_call_attempts: c.shape.maxAttempts, call_interval: c.shape.interval,
          call_allowed_from_time: c.shape.window?.[0] ?? null, call_allowed_to_time: c.shape.window?.[1] ?? null,
          work_schedule: c.schedule, is_auto_ai_message: c.autoTexts,
        });
        campaigns.push(campaign);
        await db.insertInto('campaign_messaging').values({
          ...MESSAGING_DEFAULTS, campaign_id: campaign, owner_id: h.account.id,
          max_per_contact: c.maxPerContact, delay_minutes: c.delayMinutes, max_ai_replies_per_day: c.maxReplies, updated_at: h.clock.now(),
        }).execute();
        for (const k of s.contacts) {
          const phone = k.shared ? shared : usNumber();
          const fields = { timezone: c.shape.zone, contact_data: { _sim: { status: k.status, duration: k.duration } } };
          // The shared number once per campaign (a campaign holds a number once).
          const [id] = await h.contacts(campaign, [phone], fields).catch(() => h.contacts(campaign, [usNumber()], fields));
          const row = await h.contact(id!);
          // A contact without a zone is read in its number's: every number here is New York's.
          contacts.push({ id: id!, phone: row.phone_number, zone: c.shape.zone ?? 'America/New_York', campaign, maxPerContact: c.maxPerContact, maxReplies: c.maxReplies });
        }
        await h.enqueue(campaign);
      }

      // number -> how many sends the vendor had seen when it was suppressed (by hand or by STOP):
      // order, not the clock, tells a send at the same instant from one after it.
      const blockedAt = new Map<string, number>();
      const textedContacts = () => db.selectFrom('messages').select(['contact_id', (eb) => eb.fn.max('id').as('id')])
        .where('contact_id', 'in', contacts.map((k) => k.id)).where('direction', '=', 'outbound').groupBy('contact_id').orderBy('contact_id').execute();
      for (const step of s.steps) {
        await h.round();
        await textRound();
        if (step.manual) {
          const k = contacts[step.manual[0] % contacts.length]!;
          await insertMessageJobs(db, [{ ownerId: h.account.id, campaignId: k.campaign, contactId: k.id, purpose: 'manual', body: 'A word from the operator', dueAt: new Date(h.clock.now().getTime() + step.manual[1] * 60_000) }]);
        }
        if (step.suppress !== null) {
          const phone = step.suppress % 2 === 0 ? shared : contacts[step.suppress % contacts.length]!.phone;
          const res = await h.t.request({ method: 'POST', url: '/api/v1/suppressions/', headers: h.account.headers, payload: { phone_number: phone } });
          expect(res.statusCode, res.body).toBe(200);
          if (!blockedAt.has(phone)) blockedAt.set(phone, sends.length);
        }
        // People answer texts: one of the contacts texted so far answers the last text it got.
        const texted = step.answer ? await textedContacts() : [];
        if (step.answer && texted.length > 0) {
          const last = texted[step.answer[0] % texted.length]!;
          const k = contacts.find((c) => c.id === Number(last.contact_id))!;
          const got = await receiveText(h.t.deps, {
            provider: 'sim', connectionId: null, channel: 'sms', from: k.phone, to: CAMPAIGN_PHONE, body: step.answer[1],
            providerMessageId: `SMpropin${process.pid}x${++inbound}`, at: h.clock.now(), inReplyToMessageId: Number(last.id),
          });
          if (got?.intent === 'opt_out' && !blockedAt.has(k.phone)) blockedAt.set(k.phone, sends.length);
        }
        // Sends at the same instant as a suppression or an answer: the law must see them.
        await textRound();
        await h.advance(step.minutes * 60_000);
      }
      await textRound();

      const mine = sends.slice(runStart);
      const ids = mine.map((x) => x.messageId);
      expect(new Set(ids).size, 'a message sent twice').toBe(ids.length);
      const rows = ids.length === 0 ? [] : await db.selectFrom('messages').select(['id', 'contact_id', 'purpose', 'to_number', 'created_at']).where('id', 'in', ids).execute();
      const byId = new Map(rows.map((r) => [Number(r.id), r]));
      const contactOf = new Map(contacts.map((k) => [k.id, k]));
      const [qFrom, qTo] = [s.quiet[0], s.quiet[1]];
      for (const [i, send] of mine.entries()) {
        const row = byId.get(send.messageId)!;
        const k = contactOf.get(Number(row.contact_id))!;
        const at = new Date(send.at);
        const label = `message ${send.messageId} (${row.purpose}) to ${send.to} at ${at.toISOString()}`;
        expect(row.to_number, label).toBe(send.to);
        const blocked = blockedAt.get(send.to);
        expect(blocked === undefined || runStart + i < blocked, `${label}: sent after the number's suppression or STOP`).toBe(true);
        // Quiet hours in the contact's zone, read independently of the service's window code.
        const local = DateTime.fromJSDate(at, { zone: k.zone });
        const minute = local.hour * 60 + local.minute;
        expect(minute >= qFrom * 60 && minute < qTo * 60, `${label}: local ${local.toISO()} outside quiet hours ${qFrom}-${qTo}`).toBe(true);
        const campaign = await db.selectFrom('campaigns').select(['work_schedule', (eb) => eb.cast<string | null>('call_allowed_from_time', 'text').as('call_allowed_from_time'), (eb) => eb.cast<string | null>('call_allowed_to_time', 'text').as('call_allowed_to_time')])
          .where('id', '=', k.campaign).executeTakeFirstOrThrow();
        const rule = await windowRuleFor(campaign, { timezone: k.zone, phone_number: k.phone }, [qFrom * 3600, qTo * 3600]);
        expect(isOpen(rule, at), `${label}: outside the campaign's window or schedule`).toBe(true);
        expect(row.created_at.getTime(), `${label}: the row is the send's record`).toBe(send.at);
      }
      // Caps per number over the account's own texts (replies to the person are not counted).
      const started = mine.filter((x) => byId.get(x.messageId)!.purpose !== 'reply');
      for (const x of started) {
        const before = started.filter((y) => y.to === x.to && y.at <= x.at && y.messageId <= x.messageId);
        expect(before.filter((y) => y.at > x.at - DAY).length, `cap a day at ${x.to}`).toBeLessThanOrEqual(caps.perDay);
        expect(before.filter((y) => y.at > x.at - 7 * DAY).length, `cap a week at ${x.to}`).toBeLessThanOrEqual(caps.perWeek);
      }
      for (const k of contacts) {
        const theirs = rows.filter((r) => Number(r.contact_id) === k.id).sort((a, b) => Number(a.id) - Number(b.id));
        // Automatic texts only while the contact had fewer than max_per_contact texts, replies to
        // the person not counted (as documented; src/modules/messaging/text-max-per-contact.test.ts).
        const counted = theirs.filter((r) => r.purpose !== 'reply');
        for (const [i, r] of counted.entries()) if (r.purpose === 'follow_up' || r.purpose === 'confirmation') expect(i, `max_per_contact of contact ${k.id}`).toBeLessThan(k.maxPerContact);
        const replies = theirs.filter((r) => r.purpose === 'reply').map((r) => r.created_at.getTime());
        for (const t of replies) expect(replies.filter((u) => u <= t && u > t - DAY).length, `AI replies a day to contact ${k.id}`).toBeLessThanOrEqual(k.maxReplies);
        const outbound = await db.selectFrom('messages').select('id').where('contact_id', '=', k.id).where('direction', '=', 'outbound').execute();
        expect(outbound.length, `every outbound text of contact ${k.id} was sent`).toBe(theirs.length);
        expect((await h.contact(k.id)).message_attempts, `message_attempts of contact ${k.id}`).toBe(outbound.length);
      }
      // What this world left undone must not leak into the next one.
      await db.updateTable('message_jobs').set({ status: 'cancelled', reason: 'end of a property run' }).where('status', '=', 'pending').execute();
      await db.updateTable('campaigns').set({ is_paused: true, is_auto_ai_message: false }).where('id', 'in', campaigns).execute();
    // A run is a second or more: shrinking is asked for (PROPERTY_SHRINK=1 with PROPERTY_SEED).
    }), { numRuns: Number(process.env.PROPERTY_RUNS ?? 10), seed: propertySeed('text properties'), endOnFailure: !process.env.PROPERTY_SHRINK });
    await callAroundTheClock(db, h.account.id);
    // Not vacuous: the runs sent texts of every kind and the law held some back, for each reason.
    const purposes = await db.selectFrom('messages').select(['purpose', (eb) => eb.fn.countAll<number>().as('n')]).where('direction', '=', 'outbound').groupBy('purpose').execute();
    const why = (re: RegExp) => [...holds].filter((j) => re.test(j)).length;
    const tally = { sent: Object.fromEntries(purposes.map((p) => [p.purpose, Number(p.n)])), window: why(/window|quiet/), caps: why(/frequency caps/), suppressed: why(/do-not-call|suppress|opted out|do_not_disturb/), maxPerContact: why(/max_per_contact/), replies: why(/max_ai_replies/) };
    console.log('text properties:', JSON.stringify(tally));
    expect(sends.length).toBeGreaterThan(0);
  });
});

import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { MessagePurpose } from '../../db/tables/messaging.ts';
import { nextOpening } from '../contact-lifecycle/calling-window.ts';
import { windowRuleFor, type CampaignWindowFields } from '../contact-lifecycle/contact-window.ts';
import { firstAllowed, suppressedReason, suppressionsOf } from '../contact-lifecycle/reach-law.ts';
import { secondsOfDay } from '../../shared/time-of-day.ts';
import { NOT_TEXTABLE_CODES } from '../../messaging/text-channel.ts';
import { DEFAULT_TEXT_CAPS } from '../compliance/text-caps.ts';
import { DEFAULT_COMPLIANCE, quietBounds } from '../compliance/compliance-settings.ts';
import { usageLimitWaits } from './text-usage-limit.ts';

/**
 * May these texts be sent now? The questions the dialer asks of a call, asked of a text, at send
 * time, in the transaction that writes the Message rows (send-text.ts), for a whole batch in a
 * handful of statements:
 * - the do-not-call list and the contact's own state (do_not_disturb, paused);
 * - the campaign's usage limit: at it, the text waits like a call (text-usage-limit.ts);
 * - the campaign's calling window and schedule, clipped to the account's quiet hours, read in
 *   the contact's zone (texts are regulated like calls): outside them the text waits;
 * - the account's text caps per number (max_texts_per_day/week, counted over the texts the
 *   account starts: follow-ups, confirmations, operators' texts) under a lock per (account,
 *   number), taken in (account, number) order; replies in a conversation the person started are
 *   bounded per campaign instead (max_ai_replies_per_day);
 * - the campaign's max_per_contact, and a number a vendor called a landline is never texted again.
 */
type Trx = Transaction<Database>;

export type TextVerdict = { kind: 'send' } | { kind: 'wait'; until: Date; reason: string } | { kind: 'skip'; reason: string };

export interface TextLawInput {
  ownerId: number;
  purpose: MessagePurpose;
  contact: { id: number; status: string; phone_number: string; timezone: string | null; message_attempts: number };
  campaign: CampaignWindowFields & { is_paused: boolean | null; is_archive: boolean | null; is_auto_ai_message: boolean };
  settings: { max_per_contact: number; max_ai_replies_per_day: number; ai_replies: boolean };
}

/** The advisory lock class of a number's text caps (7301 campaigns, 7302 call caps). */
const TEXT_LOCK_CLASS = 7_303;
const PAUSED_RECHECK_MS = 10 * 60_000;
const DAY = 86_400_000;

/** One verdict per input, in order. */
export async function textVerdicts(trx: Trx, inputs: TextLawInput[], now: Date): Promise<TextVerdict[]> {
  const verdicts: (TextVerdict | null)[] = inputs.map((input) => stateVerdict(input, now));
  const open = () => inputs.flatMap((input, i) => (verdicts[i] === null ? [{ input, i }] : []));

  const limited = await usageLimitWaits(trx, open().map(({ input }) => input.contact.id), now);
  for (const { input, i } of open()) {
    const wait = limited.get(input.contact.id);
    if (wait) verdicts[i] = { kind: 'wait', ...wait };
  }

  // Read at once, after the caps' locks (lawFacts): a batch asks the database three times, not six.
  const facts = await lawFacts(trx, open().map(({ input }) => input), now);
  for (const { input, i } of open()) {
    const key = `${input.ownerId}|${input.contact.phone_number}`;
    const s = facts.suppressed.get(key);
    if (s) verdicts[i] = { kind: 'skip', reason: suppressedReason(s) };
    else if (facts.landlines.has(key)) verdicts[i] = { kind: 'skip', reason: 'the number cannot receive texts (a vendor reported a landline)' };
    else verdicts[i] = overTheContactMax(input, facts.sent);
  }

  const limits = facts.limits;
  for (const { input, i } of open()) {
    const rule = await windowRuleFor(input.campaign, input.contact, limits.get(input.ownerId)!.quiet);
    const opening = nextOpening(rule, now);
    if (!opening) verdicts[i] = { kind: 'skip', reason: 'the campaign\'s window never opens for this contact' };
    else if (opening > now) verdicts[i] = { kind: 'wait', until: opening, reason: 'outside the contact\'s calling window or the account\'s quiet hours' };
  }

  const replies = facts.replies;
  for (const { input, i } of open()) {
    if (input.purpose !== 'reply') continue;
    const n = replies.get(input.contact.id) ?? 0;
    verdicts[i] = n >= input.settings.max_ai_replies_per_day
      ? { kind: 'skip', reason: `${n} AI replies in the last 24 hours (max_ai_replies_per_day ${input.settings.max_ai_replies_per_day})` }
      : { kind: 'send' };
    replies.set(input.contact.id, n + 1);
  }

  const starts = facts.starts;
  for (const { input, i } of open()) {
    const key = `${input.ownerId}|${input.contact.phone_number}`;
    const l = limits.get(input.ownerId)!;
    const before = starts.get(key) ?? [];
    const at = firstAllowed(before, now.getTime(), [[DAY, l.perDay], [7 * DAY, l.perWeek]]);
    const over = at ? null : overTheContactMax(input, facts.sent);
    if (at) {
      verdicts[i] = { kind: 'wait', until: at, reason: `text frequency caps (${l.perDay} a day, ${l.perWeek} a week to one number)` };
    } else if (over) {
      verdicts[i] = over;
    } else {
      verdicts[i] = { kind: 'send' };
      // A follow-up later in this batch counts this text (an operator's too: only replies are not counted).
      facts.sent.set(input.contact.id, (facts.sent.get(input.contact.id) ?? 0) + 1);
      // A second text to the same number in this batch counts this one.
      starts.set(key, [...before, now.getTime()]);
    }
  }
  return verdicts.map((v) => v ?? { kind: 'send' });
}

const automatic = (input: TextLawInput) => input.purpose === 'follow_up' || input.purpose === 'confirmation';

/**
 * The campaign's max_per_contact, over the texts sent to the contact other than replies to the
 * person (message_attempts counts every outbound text: the interface's counter, not this limit).
 * Null when the text may go as far as this rule is concerned.
 */
function overTheContactMax(input: TextLawInput, sent: Map<number, number>): TextVerdict | null {
  if (!automatic(input)) return null;
  const n = sent.get(input.contact.id) ?? 0;
  return n >= input.settings.max_per_contact
    ? { kind: 'skip', reason: `the contact already had ${n} texts other than replies (max_per_contact ${input.settings.max_per_contact})` }
    : null;
}

/** What the contact's and campaign's own state decide, before any lookup; null: ask the rest. */
function stateVerdict(input: TextLawInput, now: Date): TextVerdict | null {
  const { contact, campaign, purpose } = input;
  if (automatic(input) && !campaign.is_auto_ai_message) return { kind: 'skip', reason: 'the campaign no longer sends texts (is_auto_ai_message is off)' };
  if (purpose === 'reply' && !input.settings.ai_replies) return { kind: 'skip', reason: 'the campaign\'s AI replies are off' };
  if (contact.status === 'do_not_disturb') return { kind: 'skip', reason: 'the contact is do_not_disturb' };
  if (campaign.is_archive) return { kind: 'skip', reason: 'the campaign is archived' };
  if (campaign.is_paused || contact.status === 'paused') {
    return { kind: 'wait', until: new Date(now.getTime() + PAUSED_RECHECK_MS), reason: campaign.is_paused ? 'the campaign is paused' : 'the contact is paused' };
  }
  return null;
}

interface AccountTextLimits {
  quiet: [number, number];
  perDay: number;
  perWeek: number;
}

interface LawFacts {
  suppressed: Map<string, { id: number; reason: string | null }>;
  /** `owner|phone` of the numbers a vendor called a landline. */
  landlines: Set<string>;
  limits: Map<number, AccountTextLimits>;
  /** AI replies sent to each contact (of a reply) in the last 24 hours. */
  replies: Map<number, number>;
  /** Outbound texts other than replies sent to each contact (of a follow-up or confirmation), ever. */
  sent: Map<number, number>;
  /** Starts (ms) of the texts the account started to each capped number in the last week. */
  starts: Map<string, number[]>;
}

type Key = { ownerId: number; phone: string };
const unique = (keys: Key[]) => [...new Map(keys.map((k) => [`${k.ownerId}|${k.phone}`, k])).values()]
  .sort((a, b) => a.ownerId - b.ownerId || (a.phone < b.phone ? -1 : a.phone > b.phone ? 1 : 0));

/**
 * What the law reads of these texts' numbers, contacts and accounts, in three statements: the
 * caps' locks, the do-not-call list (reach-law.ts, the dialer's rule), and the rest in one. The
 * locks (one per (account, number), in that order, as the dialer's) come first: a statement's
 * snapshot is taken when it starts, so the texts counted must be read by a later statement.
 * The numbers locked are those of every text its own state left open, a few more than the caps
 * will count (a text a later check stops holds its lock to the commit: a wait, not a wrong
 * count). Replies are bounded per contact, not by the caps: their numbers are neither locked nor counted.
 */
async function lawFacts(trx: Trx, inputs: TextLawInput[], now: Date): Promise<LawFacts> {
  const keys = unique(inputs.map((input) => ({ ownerId: input.ownerId, phone: input.contact.phone_number })));
  const capped = unique(inputs.filter((input) => input.purpose !== 'reply').map((input) => ({ ownerId: input.ownerId, phone: input.contact.phone_number })));
  const replyContacts = [...new Set(inputs.filter((input) => input.purpose === 'reply').map((input) => input.contact.id))];
  const limitedContacts = [...new Set(inputs.filter((input) => input.purpose === 'follow_up' || input.purpose === 'confirmation').map((input) => input.contact.id))];
  const owners = [...new Set(inputs.map((input) => input.ownerId))];
  const limits = new Map<number, AccountTextLimits>(owners.map((id) => [id, { quiet: quietBounds(DEFAULT_COMPLIANCE), perDay: DEFAULT_TEXT_CAPS.maxPerDay, perWeek: DEFAULT_TEXT_CAPS.maxPerWeek }]));
  const facts: LawFacts = { suppressed: new Map(), landlines: new Set(), limits, replies: new Map(), sent: new Map(), starts: new Map() };
  if (inputs.length === 0) return facts;
  if (capped.length > 0) {
    await sql`
      SELECT pg_advisory_xact_lock(${TEXT_LOCK_CLASS}, hashtext(k.o::text || '|' || k.p))
      FROM unnest(${capped.map((k) => k.ownerId)}::bigint[], ${capped.map((k) => k.phone)}::text[]) WITH ORDINALITY AS k(o, p, n) ORDER BY k.n`.execute(trx);
  }
  facts.suppressed = await suppressionsOf(trx, keys, now);
  const isCapped = new Set(capped.map((k) => `${k.ownerId}|${k.phone}`));
  // One row; each column a json list. Starts are whole ms (as pg's Dates were), the caps' index
  // (messages_caps: owner_id, to_number, created_at WHERE outbound) serves both per-number reads.
  const { rows: [row] } = await sql<{ numbers: { o: number; p: string; landline: boolean; starts: number[] | null }[]; limits: { o: number; from: string; to: string; day: number; week: number }[]; replies: { c: number; n: number }[]; sent: { c: number; n: number }[] }>`
    SELECT
      (SELECT coalesce(json_agg(json_build_object('o', k.o, 'p', k.p,
          'landline', EXISTS (SELECT 1 FROM messages m WHERE m.owner_id = k.o AND m.to_number = k.p AND m.direction = 'outbound'
            AND m.error_code = ANY(${[...NOT_TEXTABLE_CODES]}::text[])),
          'starts', CASE WHEN k.capped THEN (SELECT array_agg(floor(extract(epoch FROM m.created_at) * 1000)::float8 ORDER BY m.created_at)
            FROM messages m WHERE m.owner_id = k.o AND m.to_number = k.p AND m.direction = 'outbound'
              AND m.purpose IS DISTINCT FROM 'reply' AND m.created_at > ${new Date(now.getTime() - 7 * DAY)}::timestamptz) END)), '[]')
        FROM unnest(${keys.map((k) => k.ownerId)}::bigint[], ${keys.map((k) => k.phone)}::text[], ${keys.map((k) => isCapped.has(`${k.ownerId}|${k.phone}`))}::bool[]) AS k(o, p, capped)) AS numbers,
      (SELECT coalesce(json_agg(json_build_object('o', a.owner_id, 'from', a.quiet_hours_from::text, 'to', a.quiet_hours_to::text,
          'day', a.max_texts_per_day, 'week', a.max_texts_per_week)), '[]')
        FROM account_compliance a WHERE a.owner_id = ANY(${owners}::bigint[])) AS limits,
      (SELECT coalesce(json_agg(json_build_object('c', r.contact_id, 'n', r.n)), '[]')
        FROM (SELECT contact_id, count(*) AS n FROM messages WHERE contact_id = ANY(${replyContacts}::bigint[]) AND direction = 'outbound'
          AND purpose = 'reply' AND created_at > ${new Date(now.getTime() - DAY)}::timestamptz GROUP BY contact_id) r) AS replies,
      (SELECT coalesce(json_agg(json_build_object('c', r.contact_id, 'n', r.n)), '[]')
        FROM (SELECT contact_id, count(*) AS n FROM messages WHERE contact_id = ANY(${limitedContacts}::bigint[]) AND direction = 'outbound'
          AND purpose IS DISTINCT FROM 'reply' GROUP BY contact_id) r) AS sent`.execute(trx);
  for (const n of row!.numbers) {
    const key = `${n.o}|${n.p}`;
    if (n.landline) facts.landlines.add(key);
    if (n.starts) facts.starts.set(key, n.starts);
  }
  for (const l of row!.limits) limits.set(Number(l.o), { quiet: [secondsOfDay(l.from), secondsOfDay(l.to)], perDay: l.day, perWeek: l.week });
  for (const r of row!.replies) facts.replies.set(Number(r.c), Number(r.n));
  for (const r of row!.sent) facts.sent.set(Number(r.c), Number(r.n));
  return facts;
}

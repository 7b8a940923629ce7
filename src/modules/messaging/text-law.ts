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

  const keys = open().map(({ input }) => ({ ownerId: input.ownerId, phone: input.contact.phone_number }));
  const suppressed = await suppressionsOf(trx, keys, now);
  const landlines = await landlinesOf(trx, keys);
  for (const { input, i } of open()) {
    const key = `${input.ownerId}|${input.contact.phone_number}`;
    const s = suppressed.get(key);
    if (s) verdicts[i] = { kind: 'skip', reason: suppressedReason(s) };
    else if (landlines.has(key)) verdicts[i] = { kind: 'skip', reason: 'the number cannot receive texts (a vendor reported a landline)' };
  }

  const limits = await accountTextLimits(trx, open().map(({ input }) => input.ownerId));
  for (const { input, i } of open()) {
    const rule = await windowRuleFor(input.campaign, input.contact, limits.get(input.ownerId)!.quiet);
    const opening = nextOpening(rule, now);
    if (!opening) verdicts[i] = { kind: 'skip', reason: 'the campaign\'s window never opens for this contact' };
    else if (opening > now) verdicts[i] = { kind: 'wait', until: opening, reason: 'outside the contact\'s calling window or the account\'s quiet hours' };
  }

  const replies = await repliesSince(trx, open().filter(({ input }) => input.purpose === 'reply').map(({ input }) => input.contact.id), new Date(now.getTime() - DAY));
  for (const { input, i } of open()) {
    if (input.purpose !== 'reply') continue;
    const n = replies.get(input.contact.id) ?? 0;
    verdicts[i] = n >= input.settings.max_ai_replies_per_day
      ? { kind: 'skip', reason: `${n} AI replies in the last 24 hours (max_ai_replies_per_day ${input.settings.max_ai_replies_per_day})` }
      : { kind: 'send' };
    replies.set(input.contact.id, n + 1);
  }

  const capped = open();
  const starts = await recentTextStarts(trx, capped.map(({ input }) => ({ ownerId: input.ownerId, phone: input.contact.phone_number })), now);
  for (const { input, i } of capped) {
    const key = `${input.ownerId}|${input.contact.phone_number}`;
    const l = limits.get(input.ownerId)!;
    const before = starts.get(key) ?? [];
    const at = firstAllowed(before, now.getTime(), [[DAY, l.perDay], [7 * DAY, l.perWeek]]);
    if (at) {
      verdicts[i] = { kind: 'wait', until: at, reason: `text frequency caps (${l.perDay} a day, ${l.perWeek} a week to one number)` };
    } else {
      verdicts[i] = { kind: 'send' };
      // A second text to the same number in this batch counts this one.
      starts.set(key, [...before, now.getTime()]);
    }
  }
  return verdicts.map((v) => v ?? { kind: 'send' });
}

/** What the contact's and campaign's own state decide, before any lookup; null: ask the rest. */
function stateVerdict(input: TextLawInput, now: Date): TextVerdict | null {
  const { contact, campaign, purpose } = input;
  const automatic = purpose === 'follow_up' || purpose === 'confirmation';
  if (automatic && !campaign.is_auto_ai_message) return { kind: 'skip', reason: 'the campaign no longer sends texts (is_auto_ai_message is off)' };
  if (purpose === 'reply' && !input.settings.ai_replies) return { kind: 'skip', reason: 'the campaign\'s AI replies are off' };
  if (contact.status === 'do_not_disturb') return { kind: 'skip', reason: 'the contact is do_not_disturb' };
  if (automatic && contact.message_attempts >= input.settings.max_per_contact) {
    return { kind: 'skip', reason: `the contact already had ${contact.message_attempts} texts (max_per_contact ${input.settings.max_per_contact})` };
  }
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

async function accountTextLimits(trx: Trx, ownerIds: number[]): Promise<Map<number, AccountTextLimits>> {
  const out = new Map<number, AccountTextLimits>(ownerIds.map((id) => [id, { quiet: quietBounds(DEFAULT_COMPLIANCE), perDay: DEFAULT_TEXT_CAPS.maxPerDay, perWeek: DEFAULT_TEXT_CAPS.maxPerWeek }]));
  if (ownerIds.length === 0) return out;
  const rows = await trx.selectFrom('account_compliance')
    .select(['owner_id', sql<string>`quiet_hours_from::text`.as('from'), sql<string>`quiet_hours_to::text`.as('to'), 'max_texts_per_day', 'max_texts_per_week'])
    .where('owner_id', 'in', [...new Set(ownerIds)]).execute();
  for (const r of rows) out.set(Number(r.owner_id), { quiet: [secondsOfDay(r.from), secondsOfDay(r.to)], perDay: r.max_texts_per_day, perWeek: r.max_texts_per_week });
  return out;
}

type Key = { ownerId: number; phone: string };
const unique = (keys: Key[]) => [...new Map(keys.map((k) => [`${k.ownerId}|${k.phone}`, k])).values()]
  .sort((a, b) => a.ownerId - b.ownerId || (a.phone < b.phone ? -1 : a.phone > b.phone ? 1 : 0));

/** Starts (ms) of the texts the account started to each number in the last week, under the numbers' locks. */
async function recentTextStarts(trx: Trx, keys: Key[], now: Date): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  const u = unique(keys);
  if (u.length === 0) return out;
  await sql`
    SELECT pg_advisory_xact_lock(${TEXT_LOCK_CLASS}, hashtext(k.o::text || '|' || k.p))
    FROM unnest(${u.map((k) => k.ownerId)}::bigint[], ${u.map((k) => k.phone)}::text[]) WITH ORDINALITY AS k(o, p, n) ORDER BY k.n`.execute(trx);
  const { rows } = await sql<{ owner_id: number; to_number: string; starts: Date[] }>`
    SELECT m.owner_id, m.to_number, array_agg(m.created_at ORDER BY m.created_at) AS starts
    FROM messages m JOIN unnest(${u.map((k) => k.ownerId)}::bigint[], ${u.map((k) => k.phone)}::text[]) AS k(o, p)
      ON m.owner_id = k.o AND m.to_number = k.p
    WHERE m.direction = 'outbound' AND m.purpose IS DISTINCT FROM 'reply' AND m.created_at > ${new Date(now.getTime() - 7 * DAY)}::timestamptz
    GROUP BY m.owner_id, m.to_number`.execute(trx);
  for (const r of rows) out.set(`${r.owner_id}|${r.to_number}`, r.starts.map((d) => new Date(d).getTime()));
  return out;
}

async function landlinesOf(trx: Trx, keys: Key[]): Promise<Set<string>> {
  const u = unique(keys);
  if (u.length === 0) return new Set();
  const { rows } = await sql<{ owner_id: number; to_number: string }>`
    SELECT DISTINCT m.owner_id, m.to_number
    FROM messages m JOIN unnest(${u.map((k) => k.ownerId)}::bigint[], ${u.map((k) => k.phone)}::text[]) AS k(o, p)
      ON m.owner_id = k.o AND m.to_number = k.p
    WHERE m.direction = 'outbound' AND m.error_code = ANY(${[...NOT_TEXTABLE_CODES]}::text[])`.execute(trx);
  return new Set(rows.map((r) => `${r.owner_id}|${r.to_number}`));
}

async function repliesSince(trx: Trx, contactIds: number[], since: Date): Promise<Map<number, number>> {
  if (contactIds.length === 0) return new Map();
  const rows = await trx.selectFrom('messages').select(['contact_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('contact_id', 'in', [...new Set(contactIds)]).where('direction', '=', 'outbound').where('purpose', '=', 'reply')
    .where('created_at', '>', since).groupBy('contact_id').execute();
  return new Map(rows.map((r) => [Number(r.contact_id), Number(r.n)]));
}

import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { MessagePurpose } from '../../db/tables/messaging.ts';
import { nextOpening } from '../contact-lifecycle/calling-window.ts';
import { windowRuleFor, type CampaignWindowFields } from '../contact-lifecycle/contact-window.ts';
import { firstAllowed, suppressedReason, suppressionsOf } from '../contact-lifecycle/reach-law.ts';
import { secondsOfDay } from '../../shared/time-of-day.ts';
import { NOT_TEXTABLE_CODES } from '../../messaging/text-channel.ts';

/**
 * May this text be sent now? The questions the dialer asks of a call, asked of a text, at send
 * time, in the transaction that writes the Message row (text-sender.worker.ts):
 * - the do-not-call list and the contact's own state (do_not_disturb, paused);
 * - the campaign's calling window and schedule, clipped to the account's quiet hours, read in
 *   the contact's zone (texts are regulated like calls): outside them the text waits;
 * - the account's text caps per number (max_texts_per_day/week, counted over the texts the
 *   account starts: follow-ups, confirmations, operators' texts) under a lock per (account,
 *   number); replies in a conversation the person started are bounded per campaign instead
 *   (max_ai_replies_per_day);
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
  now: Date;
}

/** The advisory lock class of a number's text caps (7301 campaigns, 7302 call caps). */
const TEXT_LOCK_CLASS = 7_303;
const PAUSED_RECHECK_MS = 10 * 60_000;

export async function textVerdict(trx: Trx, input: TextLawInput): Promise<TextVerdict> {
  const { contact, campaign, now, purpose } = input;
  const automatic = purpose === 'follow_up' || purpose === 'confirmation';
  if (automatic && !campaign.is_auto_ai_message) return { kind: 'skip', reason: 'the campaign no longer sends texts (is_auto_ai_message is off)' };
  if (purpose === 'reply' && !input.settings.ai_replies) return { kind: 'skip', reason: 'the campaign\'s AI replies are off' };
  if (contact.status === 'do_not_disturb') return { kind: 'skip', reason: 'the contact is do_not_disturb' };
  const suppressed = (await suppressionsOf(trx, [{ ownerId: input.ownerId, phone: contact.phone_number }], now)).get(`${input.ownerId}|${contact.phone_number}`);
  if (suppressed) return { kind: 'skip', reason: suppressedReason(suppressed) };
  if (await isLandline(trx, input.ownerId, contact.phone_number)) return { kind: 'skip', reason: 'the number cannot receive texts (a vendor reported a landline)' };
  if (automatic && contact.message_attempts >= input.settings.max_per_contact) {
    return { kind: 'skip', reason: `the contact already had ${contact.message_attempts} texts (max_per_contact ${input.settings.max_per_contact})` };
  }
  if (campaign.is_archive) return { kind: 'skip', reason: 'the campaign is archived' };
  if (campaign.is_paused || contact.status === 'paused') {
    return { kind: 'wait', until: new Date(now.getTime() + PAUSED_RECHECK_MS), reason: campaign.is_paused ? 'the campaign is paused' : 'the contact is paused' };
  }
  const limits = await accountTextLimits(trx, input.ownerId);
  const rule = await windowRuleFor(campaign, contact, limits.quiet);
  const opening = nextOpening(rule, now);
  if (!opening) return { kind: 'skip', reason: 'the campaign\'s window never opens for this contact' };
  if (opening > now) return { kind: 'wait', until: opening, reason: 'outside the contact\'s calling window or the account\'s quiet hours' };
  if (purpose === 'reply') {
    const today = await repliesSince(trx, contact.id, new Date(now.getTime() - 86_400_000));
    if (today >= input.settings.max_ai_replies_per_day) return { kind: 'skip', reason: `${today} AI replies in the last 24 hours (max_ai_replies_per_day ${input.settings.max_ai_replies_per_day})` };
    return { kind: 'send' };
  }
  const capped = await textCapVerdict(trx, input.ownerId, contact.phone_number, limits, now);
  if (capped) return { kind: 'wait', until: capped, reason: `text frequency caps (${limits.perDay} a day, ${limits.perWeek} a week to one number)` };
  return { kind: 'send' };
}

interface AccountTextLimits {
  quiet: [number, number];
  perDay: number;
  perWeek: number;
}

async function accountTextLimits(trx: Trx, ownerId: number): Promise<AccountTextLimits> {
  const row = await trx.selectFrom('account_compliance')
    .select([sql<string>`quiet_hours_from::text`.as('from'), sql<string>`quiet_hours_to::text`.as('to'), 'max_texts_per_day', 'max_texts_per_week'])
    .where('owner_id', '=', ownerId).executeTakeFirst();
  return {
    quiet: [secondsOfDay(row?.from ?? '08:00:00'), secondsOfDay(row?.to ?? '21:00:00')],
    perDay: row?.max_texts_per_day ?? 2,
    perWeek: row?.max_texts_per_week ?? 5,
  };
}

/** null when another text may start now, else when the caps allow one (locks the number for the transaction). */
async function textCapVerdict(trx: Trx, ownerId: number, phone: string, limits: AccountTextLimits, now: Date): Promise<Date | null> {
  await sql`SELECT pg_advisory_xact_lock(${TEXT_LOCK_CLASS}, hashtext(${`${ownerId}|${phone}`}))`.execute(trx);
  const { rows } = await sql<{ created_at: Date }>`
    SELECT created_at FROM messages
    WHERE owner_id = ${ownerId} AND to_number = ${phone} AND direction = 'outbound' AND purpose IS DISTINCT FROM 'reply'
      AND created_at > ${new Date(now.getTime() - 7 * 86_400_000)}::timestamptz
    ORDER BY created_at`.execute(trx);
  return firstAllowed(rows.map((r) => new Date(r.created_at).getTime()), now.getTime(), [[86_400_000, limits.perDay], [7 * 86_400_000, limits.perWeek]]);
}

async function isLandline(trx: Trx, ownerId: number, phone: string): Promise<boolean> {
  const row = await trx.selectFrom('messages').select('id')
    .where('owner_id', '=', ownerId).where('to_number', '=', phone).where('direction', '=', 'outbound')
    .where('error_code', 'in', [...NOT_TEXTABLE_CODES]).limit(1).executeTakeFirst();
  return row !== undefined;
}

async function repliesSince(trx: Trx, contactId: number, since: Date): Promise<number> {
  const row = await trx.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('contact_id', '=', contactId).where('direction', '=', 'outbound').where('purpose', '=', 'reply')
    .where('created_at', '>', since).executeTakeFirstOrThrow();
  return Number(row.n);
}

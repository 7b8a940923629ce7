import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { TextChannelName } from '../../db/tables/messaging.ts';
import { NOT_TEXTABLE_CODES, textErrorWords, UNSUBSCRIBED_CODE } from '../../messaging/text-channel.ts';
import { insertAuditEvent } from '../audit/audit.repository.ts';
import { deleteSuppressionRow, suppressedAmong } from '../compliance/suppressions/suppressions.repository.ts';
import { suppressNumber } from '../compliance/suppressions/suppressions.service.ts';
import { cancelPendingTexts } from './message-jobs.repository.ts';

/**
 * Opting out and back in by text, and what a vendor's refusal of a number means for it.
 *
 * A text opt-out (STOP, or Twilio's 21610 "unsubscribed") puts the number on the account's
 * do-not-call list with source opt_out, which moves the account's contacts with the number to
 * do_not_disturb (the lifecycle's suppressContacts) and cancels their pending texts. The
 * suppressions table links a call only, so the message is named in the reason, which starts
 * with TEXT_OPT_OUT_MARK: START lifts only such a suppression, never one a person, an import or
 * a call made. A number already suppressed otherwise keeps its row as it is.
 */
export const TEXT_OPT_OUT_MARK = 'text opt-out';

type Trx = Transaction<Database>;

export interface TextOptOutInput {
  ownerId: number;
  phone: string;
  channel: TextChannelName;
  messageId: number;
  /** What the person did, for the reason ("replied \"STOP\"", "Twilio 21610 …"). */
  what: string;
}

export const isTextOptOut = (reason: string | null) => reason !== null && reason.startsWith(`${TEXT_OPT_OUT_MARK} (`);
const channelWord = (channel: TextChannelName) => (channel === 'whatsapp' ? 'WhatsApp' : 'SMS');

/** Who acted, for the audit trail: the person, by text (no user of the account). */
const personActor = (phone: string, channel: TextChannelName) =>
  ({ actor_user_id: null, actor_sub_user_id: null, actor_api_key_id: null, actor_label: sql<string>`${`${phone} by ${channelWord(channel)}`}::text` });

/** Suppresses the number by text; answers the suppression's id, or null when another kind of suppression already stood. */
export async function suppressByText(trx: Trx, input: TextOptOutInput, now: Date): Promise<number | null> {
  const reason = `${TEXT_OPT_OUT_MARK} (${channelWord(input.channel)}, message ${input.messageId}): ${input.what}`;
  const existing = (await suppressedAmong(trx, input.ownerId, [input.phone], now)).get(input.phone);
  await cancelPendingTexts(trx, await contactsWithNumber(trx, input.ownerId, input.phone), `cancelled: ${input.phone} opted out by text (message ${input.messageId})`);
  if (existing && !isTextOptOut(existing.reason)) return null;
  // A repeated STOP (or the same report twice) changes nothing and writes no second audit event.
  if (existing && existing.source === 'opt_out' && existing.reason?.startsWith(`${TEXT_OPT_OUT_MARK} (${channelWord(input.channel)}, message ${input.messageId})`)) return existing.id;
  const row = await suppressNumber(trx, { ownerId: input.ownerId, phoneNumber: input.phone, reason, source: 'opt_out' });
  await insertAuditEvent(trx, {
    owner_id: input.ownerId, ...personActor(input.phone, input.channel), kind: 'suppression.added', subject_type: 'suppression', subject_id: row.id,
    details: { phone_number: row.phone_number, source: row.source, reason: row.reason, channel: input.channel, message_id: input.messageId },
    ip: null, user_agent: null,
  });
  return row.id;
}

/**
 * START (or YES after a STOP): lifts the number's suppression when a text made it; answers the
 * lifted suppression's id, or null. As when the owner removes one, the contacts moved to
 * do_not_disturb stay so: calling them again is the owner's decision.
 */
export async function liftTextOptOut(trx: Trx, input: Omit<TextOptOutInput, 'what'>, now: Date): Promise<number | null> {
  const existing = (await suppressedAmong(trx, input.ownerId, [input.phone], now)).get(input.phone);
  if (!existing || !isTextOptOut(existing.reason)) return null;
  await deleteSuppressionRow(trx, existing.id);
  await insertAuditEvent(trx, {
    owner_id: input.ownerId, ...personActor(input.phone, input.channel), kind: 'suppression.removed', subject_type: 'suppression', subject_id: existing.id,
    details: { phone_number: existing.phone_number, source: existing.source, reason: existing.reason, channel: input.channel, message_id: input.messageId, lifted_by: 'text opt-in' },
    ip: null, user_agent: null,
  });
  return existing.id;
}

/** Whether the number's active suppression is one a text made (YES then means START). */
export async function hasTextOptOut(trx: Trx, ownerId: number, phone: string, now: Date): Promise<boolean> {
  return isTextOptOut((await suppressedAmong(trx, ownerId, [phone], now)).get(phone)?.reason ?? null);
}

/**
 * What a vendor's error code on an outbound text means beyond that message (a status callback's
 * ErrorCode, or a refused send: the text sender calls this too):
 * - 21610, the recipient unsubscribed from this sender at the carrier: the number is suppressed
 *   account-wide, as a STOP;
 * - 21614/21211/21612, the number cannot take texts (a landline): the contact's pending texts
 *   are cancelled, saying why. Calls go on.
 */
export async function applyTextErrorCode(trx: Trx, message: { id: number; owner_id: number; contact_id: number; to_number: string; source: TextChannelName }, code: string | null, now: Date): Promise<'suppressed' | 'not_textable' | null> {
  if (code === UNSUBSCRIBED_CODE) {
    await suppressByText(trx, { ownerId: message.owner_id, phone: message.to_number, channel: message.source, messageId: message.id, what: `Twilio ${code}, ${textErrorWords(code)}` }, now);
    return 'suppressed';
  }
  if (code !== null && NOT_TEXTABLE_CODES.has(code)) {
    await cancelPendingTexts(trx, [message.contact_id], `not texted again: message ${message.id} was refused, ${textErrorWords(code)} (${code})`);
    return 'not_textable';
  }
  return null;
}

async function contactsWithNumber(trx: Trx, ownerId: number, phone: string): Promise<number[]> {
  const rows = await trx.selectFrom('contacts').select('id').where('owner_id', '=', ownerId).where('phone_number', '=', phone).execute();
  return rows.map((r) => Number(r.id));
}

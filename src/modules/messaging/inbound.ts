import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import type { InboundText } from '../../messaging/text-channel.ts';
import { normalisePhone } from '../../shared/phone.ts';
import { finishDueContacts, scheduleContactCall } from '../contact-lifecycle/contact-lifecycle.repository.ts';
import { suppressionsOf } from '../contact-lifecycle/reach-law.ts';
import { queueContactsNow } from '../contact-lifecycle/queueing.ts';
import { tomorrowMorning } from './callback-time.ts';
import { threadText, type TextThread } from './inbound-thread.ts';
import { messagingSettingsOf, type MessagingSettings } from './messaging-defaults.ts';
import { insertMessageJobs, notifyTextsDue } from './message-jobs.repository.ts';
import { textIntent, type TextIntent } from './text-intents.ts';
import { hasTextOptOut, liftTextOptOut, suppressByText } from './text-opt-out.ts';
import { enqueueTextDeliveries } from '../webhooks/text-event.ts';

/**
 * Inbound texts from every vendor (Twilio's webhook, the simulator): threaded to the contact
 * (inbound-thread.ts), stored as the contact's line of the conversation (a vendor's retry of
 * the same message is stored once and acted on once), then acted on, all in one transaction:
 * - opt-out (STOP and its equivalents): the number suppressed account-wide (text-opt-out.ts);
 * - opt-in (START, YES after a STOP by text): that suppression lifted;
 * - "call me": a call queued now, or "tomorrow" at 10:00 the contact's time (callback_requested);
 * - anything else is a reply, and a reply counts as reached: with the campaign's
 *   reply_stops_calls, the contact's pending call retries end (finished, "replied by text");
 *   interest says so in the same sentence. (The messages table has no intent column: the intent
 *   is in the contact's next_action_reason, the reply job's reason and the answer.)
 * Webhook integrations of the campaign that ask for inbound texts get their event (text-event.ts).
 * Then, unless the person opted out, asked for HELP (the vendor answers it) or is suppressed,
 * the AI answers: a `reply` job due now, at most max_ai_replies_per_day a day per contact.
 */
export interface ReceivedText {
  messageId: number;
  contactId: number;
  intent: TextIntent['kind'];
  /** False when the vendor's retry brought a message already stored (nothing was done again). */
  stored: boolean;
  replyJobId: number | null;
}

type Trx = Transaction<Database>;

export async function receiveText(deps: Deps, text: InboundText): Promise<ReceivedText | null> {
  const from = normalisePhone(text.from, deps.config.DEFAULT_COUNTRY)?.e164 ?? text.from;
  const to = normalisePhone(text.to, deps.config.DEFAULT_COUNTRY)?.e164 ?? text.to;
  const ownerId = text.connectionId === null ? null : await connectionOwner(deps, text.connectionId);
  const now = deps.clock.now();
  const result = await deps.db.transaction().execute(async (trx) => {
    const thread = await threadText(trx, { ownerId, from, to, channel: text.channel, provider: text.provider, connectionId: text.connectionId, inReplyToMessageId: text.inReplyToMessageId });
    if (!thread) return null;
    const inserted = await trx.insertInto('messages').values({
      owner_id: thread.ownerId, campaign_id: thread.campaignId, contact_id: thread.contactId, call_id: null,
      direction: 'inbound', role_id: 'contact', source: text.channel, purpose: null, body: text.body, status: 'received',
      to_number: to, from_number: from, provider: text.provider, voice_connection_id: text.connectionId,
      provider_message_id: text.providerMessageId, sent_at: text.at, created_at: now, updated_at: now,
    })
      .onConflict((oc) => oc.columns(['provider', 'provider_message_id']).where('provider_message_id', 'is not', null).doNothing())
      .returning('id').executeTakeFirst();
    if (!inserted) {
      const existing = await trx.selectFrom('messages').select(['id', 'contact_id']).where('provider', '=', text.provider)
        .where('provider_message_id', '=', text.providerMessageId).executeTakeFirstOrThrow();
      return { messageId: Number(existing.id), contactId: Number(existing.contact_id), intent: textIntent(text.body, text.optOutType).kind, stored: false, replyJobId: null };
    }
    const messageId = Number(inserted.id);
    await enqueueTextDeliveries(trx, messageId);
    const settings = await messagingSettingsOf(trx, thread.campaignId);
    const intent = await actOn(deps, trx, { thread, settings, messageId, phone: from, text, now });
    const replyJobId = wantsReply(intent) ? await queueReply(deps, trx, { thread, settings, messageId, phone: from, intent, now }) : null;
    return { messageId, contactId: thread.contactId, intent: intent.kind, stored: true, replyJobId };
  });
  if (!result) deps.log.info({ provider: text.provider, connectionId: text.connectionId, to }, 'inbound text not stored: no campaign uses the number or takes new contacts there, or on a shared route it matches two accounts\' contacts');
  return result;
}

interface Context {
  thread: TextThread;
  settings: MessagingSettings;
  messageId: number;
  phone: string;
  text: InboundText;
  now: Date;
}

async function actOn(deps: Deps, trx: Trx, c: Context): Promise<TextIntent> {
  let intent = textIntent(c.text.body, c.text.optOutType);
  const who = { ownerId: c.thread.ownerId, phone: c.phone, channel: c.text.channel, messageId: c.messageId };
  // YES re-subscribes only after a STOP by text (as Twilio's START keywords do); otherwise it is interest.
  if (intent.kind === 'yes') intent = (await hasTextOptOut(trx, who.ownerId, who.phone, c.now)) ? { kind: 'opt_in' } : { kind: 'interested' };
  const quoted = `"${c.text.body.trim().slice(0, 60)}"`;
  switch (intent.kind) {
    case 'opt_out':
      await suppressByText(trx, { ...who, what: `replied ${quoted}${c.text.optOutType === 'STOP' ? ' (the vendor\'s opt-out)' : ''}` }, c.now);
      return intent;
    case 'opt_in':
      await liftTextOptOut(trx, who, c.now);
      return intent;
    case 'call_me': {
      const reason = `asked by text to be called${intent.when === 'tomorrow' ? ' tomorrow' : ''} (message ${c.messageId}): ${quoted}`;
      if (intent.when === 'now') await queueContactsNow(trx, { contactIds: [c.thread.contactId], reason, wake: deps.dialerWake });
      else await scheduleContactCall(trx, c.thread.contactId, tomorrowMorning(c.now, c.thread.contactTimezone), { code: 'callback_requested', reason });
      return intent;
    }
    case 'help':
      return intent;
    default: {
      if (!c.settings.reply_stops_calls) return intent;
      const reason = intent.kind === 'interested' ? `interested: replied by text (message ${c.messageId}): ${quoted}` : `replied by text (message ${c.messageId})`;
      await finishDueContacts(trx, [c.thread.contactId], { code: 'completed', reason });
      return intent;
    }
  }
}

const wantsReply = (intent: TextIntent) => intent.kind !== 'opt_out' && intent.kind !== 'opt_in' && intent.kind !== 'help';

async function queueReply(deps: Deps, trx: Trx, c: Omit<Context, 'text'> & { intent: TextIntent }): Promise<number | null> {
  if (!c.settings.ai_replies) return null;
  // A suppressed number is never texted, whatever it writes.
  if ((await suppressionsOf(trx, [{ ownerId: c.thread.ownerId, phone: c.phone }], c.now)).size > 0) return null;
  // "Today" is the last 24 hours: a cap that needs no time zone and cannot be doubled at midnight.
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM message_jobs
     WHERE contact_id = ${c.thread.contactId} AND purpose = 'reply' AND status <> 'cancelled'
       AND created_at > ${c.now}::timestamptz - interval '24 hours'`.execute(trx);
  if ((rows[0]?.n ?? 0) >= c.settings.max_ai_replies_per_day) return null;
  const [id] = await insertMessageJobs(trx, [{
    ownerId: c.thread.ownerId, campaignId: c.thread.campaignId, contactId: c.thread.contactId, purpose: 'reply',
    replyToMessageId: c.messageId, dueAt: c.now, reason: `answer to message ${c.messageId} (${c.intent.kind})`,
  }]);
  await notifyTextsDue(trx, deps.jobWakes);
  return id ?? null;
}

async function connectionOwner(deps: Deps, connectionId: number): Promise<number | null> {
  const row = await deps.db.selectFrom('voice_connections').select('owner_id').where('id', '=', connectionId).executeTakeFirst();
  // A text signed by a connection that is gone belongs to nobody: threading finds no campaign for owner 0.
  return row ? Number(row.owner_id) : 0;
}

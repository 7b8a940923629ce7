import type { Deps } from '../../deps.ts';
import type { MessageJobRow } from '../../db/tables/messaging.ts';
import { countSegments } from '../../messaging/segments.ts';
import type { TextSendResult } from '../../messaging/text-channel.ts';
import { composeText } from './compose-text.ts';
import { messagingSettingsOf } from './messaging-defaults.ts';
import { lockClaimedJob, settleJob } from './text-jobs.repository.ts';
import { textVerdict, type TextVerdict } from './text-law.ts';
import { textRouteFor } from './text-routes.ts';
import { recordSendResult } from './send-result.ts';

/**
 * One claimed job, from its words to the vendor's answer:
 * 1. read the contact, campaign and settings; when a model will write it, ask the law first
 *    without locks (a text that must wait or is not allowed costs no model call);
 * 2. write the words (an operator's as given, else composeText);
 * 3. one transaction: the job still ours, the contact locked, the law asked again (caps under
 *    the number's lock), the Message row written `sending`, message_attempts + 1, the job sent;
 * 4. send once, and record the answer (send-result.ts).
 */
export async function sendTextJob(deps: Deps, job: MessageJobRow, workerId: string): Promise<void> {
  const now = deps.clock.now();
  const target = await loadTarget(deps, job);
  if (!target) return settleJob(deps.db, job.id, { status: 'skipped', reason: 'the contact or campaign no longer exists' });

  const asksModel = job.body === null && deps.config.LLM_BASE_URL !== undefined;
  if (asksModel) {
    // A text that must wait or may not go costs no model call.
    const early = await deps.db.transaction().execute((trx) => textVerdict(trx, { ...target.law, now }));
    if (early.kind !== 'send') return settleByVerdict(deps, job, early);
  }

  const words = job.body !== null
    ? { body: job.body, ...countSegments(job.body) }
    : await composeText(deps, { contactId: job.contact_id, callId: job.call_id, purpose: job.purpose, replyToMessageId: job.reply_to_message_id });
  const route = await textRouteFor(deps, { ownerId: job.owner_id, campaignId: job.campaign_id, campaignPhone: target.campaignPhone, messagingServiceSid: target.settings.messaging_service_sid });

  const written = await deps.db.transaction().execute(async (trx) => {
    if (!(await lockClaimedJob(trx, job.id, workerId))) return null;
    const contact = await trx.selectFrom('contacts').select(['id', 'status', 'phone_number', 'timezone', 'message_attempts'])
      .where('id', '=', job.contact_id).forUpdate().executeTakeFirst();
    if (!contact) {
      await settleJob(trx, job.id, { status: 'skipped', reason: 'the contact no longer exists' });
      return null;
    }
    const verdict = await textVerdict(trx, { ...target.law, contact, now: deps.clock.now() });
    if (verdict.kind !== 'send') {
      await settleByVerdict(trx, job, verdict);
      return null;
    }
    const message = await trx.insertInto('messages').values({
      owner_id: job.owner_id, campaign_id: job.campaign_id, contact_id: job.contact_id, call_id: job.call_id,
      direction: 'outbound', role_id: job.purpose === 'manual' ? 'operator' : 'assistant', source: target.settings.channel,
      purpose: job.purpose, body: words.body, status: 'sending', to_number: contact.phone_number, from_number: route.from,
      provider: route.provider.name, voice_connection_id: route.connectionId, segments: words.segments, encoding: words.encoding,
      sent_by_user_id: job.sent_by_user_id, sent_by_sub_user_id: job.sent_by_sub_user_id,
      // The service's clock, as calls' start_time: the caps count texts by it.
      created_at: deps.clock.now(), updated_at: deps.clock.now(),
    }).returning('id').executeTakeFirstOrThrow();
    await trx.updateTable('contacts').set((eb) => ({ message_attempts: eb('message_attempts', '+', 1), updated_at: new Date() }))
      .where('id', '=', contact.id).execute();
    await settleJob(trx, job.id, { status: 'sent', reason: null, messageId: Number(message.id) });
    return { messageId: Number(message.id), to: contact.phone_number };
  });
  if (!written) return;

  let result: TextSendResult;
  try {
    result = await route.provider.send({
      messageId: written.messageId, channel: target.settings.channel, to: written.to, from: route.from, body: words.body,
      messagingServiceSid: target.settings.messaging_service_sid, contentSid: target.settings.whatsapp_content_sid,
      simReply: target.simReply,
    });
  } catch (error) {
    result = { kind: 'lost', message: (error as Error).message };
  }
  await recordSendResult(deps, { job, messageId: written.messageId, to: written.to, result });
  deps.log.debug({ job: job.id, message: written.messageId, result: result.kind }, 'text sent');
}

async function settleByVerdict(deps: Deps | Parameters<typeof settleJob>[0], job: MessageJobRow, verdict: Exclude<TextVerdict, { kind: 'send' }>) {
  const db = 'db' in deps ? deps.db : deps;
  if (verdict.kind === 'wait') return settleJob(db, job.id, { status: 'pending', reason: `waits: ${verdict.reason}`, dueAt: verdict.until });
  return settleJob(db, job.id, { status: 'skipped', reason: verdict.reason });
}

async function loadTarget(deps: Deps, job: MessageJobRow) {
  const row = await deps.db.selectFrom('contacts as c').innerJoin('campaigns as k', 'k.id', 'c.campaign_id')
    .select(['c.id', 'c.status', 'c.phone_number', 'c.timezone', 'c.message_attempts', 'c.contact_data',
      'k.is_paused', 'k.is_archive', 'k.is_auto_ai_message', 'k.campaign_phone', 'k.work_schedule'])
    .select((eb) => [
      eb.cast<string | null>('k.call_allowed_from_time', 'text').as('call_allowed_from_time'),
      eb.cast<string | null>('k.call_allowed_to_time', 'text').as('call_allowed_to_time'),
    ])
    .where('c.id', '=', job.contact_id).where('k.id', '=', job.campaign_id).executeTakeFirst();
  if (!row) return null;
  const settings = await messagingSettingsOf(deps.db, job.campaign_id);
  const sim = (row.contact_data as { _sim?: { text_reply?: unknown } } | null)?._sim?.text_reply;
  return {
    settings,
    campaignPhone: row.campaign_phone,
    simReply: typeof sim === 'string' ? (sim as never) : null,
    law: {
      ownerId: job.owner_id,
      purpose: job.purpose,
      contact: { id: row.id, status: row.status, phone_number: row.phone_number, timezone: row.timezone, message_attempts: row.message_attempts },
      campaign: {
        call_allowed_from_time: row.call_allowed_from_time, call_allowed_to_time: row.call_allowed_to_time, work_schedule: row.work_schedule,
        is_paused: row.is_paused, is_archive: row.is_archive, is_auto_ai_message: row.is_auto_ai_message ?? false,
      },
      settings,
    },
  };
}

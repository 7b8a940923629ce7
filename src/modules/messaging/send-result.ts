import type { Deps } from '../../deps.ts';
import type { MessageJobRow } from '../../db/tables/messaging.ts';
import { NOT_TEXTABLE_CODES, textErrorWords, UNSUBSCRIBED_CODE, type TextSendResult } from '../../messaging/text-channel.ts';
import { cancelPendingTexts } from './message-jobs.repository.ts';
import { settleJob } from './text-jobs.repository.ts';

/**
 * What the vendor answered to one send, written on its Message row:
 * - accepted: the vendor's id and status (a delivery report that came first is not undone);
 * - refused: failed with the code and its plain words; a landline is not texted again (its other
 *   pending texts are cancelled), an unsubscribed number neither;
 * - rate_limited: nothing went out, so the row is removed, the attempt given back, and the job
 *   waits for the vendor's Retry-After;
 * - lost: the row stays `sending`: a delivery report adopts it, or the sweep fails it.
 */
export async function recordSendResult(deps: Deps, input: { job: MessageJobRow; messageId: number; to: string; result: TextSendResult }): Promise<void> {
  const { result, messageId, job } = input;
  const now = deps.clock.now();
  switch (result.kind) {
    case 'accepted':
      await deps.db.updateTable('messages')
        .set((eb) => ({
          provider_message_id: eb.fn.coalesce('provider_message_id', eb.val(result.providerMessageId)),
          status: eb.case().when('status', '=', 'sending').then(result.status).else(eb.ref('status')).end(),
          cost: eb.fn.coalesce('cost', eb.val(result.cost ?? null)),
          sent_at: eb.fn.coalesce('sent_at', eb.val(now)),
          updated_at: now,
        }))
        .where('id', '=', messageId).execute();
      return;
    case 'refused':
      await deps.db.transaction().execute(async (trx) => {
        await trx.updateTable('messages')
          .set({ status: 'failed', error_code: result.code, error_message: textErrorWords(result.code) ?? result.message, updated_at: now })
          .where('id', '=', messageId).where('status', '=', 'sending').execute();
        if (NOT_TEXTABLE_CODES.has(result.code) || result.code === UNSUBSCRIBED_CODE) {
          await cancelPendingTexts(trx, [job.contact_id], `not sent: ${textErrorWords(result.code)}`);
        }
      });
      return;
    case 'rate_limited':
      await deps.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('messages').where('id', '=', messageId).where('status', '=', 'sending').execute();
        await trx.updateTable('contacts').set((eb) => ({ message_attempts: eb('message_attempts', '-', 1) }))
          .where('id', '=', job.contact_id).where('message_attempts', '>', 0).execute();
        await settleJob(trx, job.id, {
          status: 'pending', messageId: null, dueAt: new Date(now.getTime() + Math.max(1000, result.retryAfterMs)),
          reason: `waits: the vendor asked to slow down (${result.code}); the attempt was given back`,
        });
      });
      return;
    case 'lost':
      deps.log.warn({ message: messageId, why: result.message }, 'text send answer lost; a delivery report adopts it, else it fails');
      return;
  }
}

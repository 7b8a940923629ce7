import { sql } from 'kysely';
import type { Deps } from '../../deps.ts';
import type { MessageJobRow } from '../../db/tables/messaging.ts';
import { NOT_TEXTABLE_CODES, textErrorWords, UNSUBSCRIBED_CODE, type TextSendResult } from '../../messaging/text-channel.ts';
import { cancelPendingTexts } from './message-jobs.repository.ts';
import { settleJobs } from './text-jobs.repository.ts';

/**
 * What the vendor answered to one send, written on its Message row:
 * - accepted: the vendor's id and status (a delivery report that came first is not undone);
 * - refused: failed with the code and its plain words; a landline is not texted again (its other
 *   pending texts are cancelled), an unsubscribed number neither;
 * - rate_limited: nothing went out, so the row is removed, the attempt given back, and the job
 *   waits for the vendor's Retry-After;
 * - lost: the row stays `sending`: a delivery report adopts it, or the sweep fails it.
 */
export interface SendOutcome {
  job: MessageJobRow;
  messageId: number;
  to: string;
  result: TextSendResult;
}

/** Every answer of a batch: the accepted ones in one statement, the rest one by one. */
export async function recordSendResults(deps: Deps, outcomes: SendOutcome[]): Promise<void> {
  const accepted = outcomes.flatMap((o) => (o.result.kind === 'accepted' ? [{ id: o.messageId, r: o.result }] : []));
  if (accepted.length > 0) {
    const col = <T>(f: (a: (typeof accepted)[number]) => T) => accepted.map(f);
    await sql`
      UPDATE messages m SET provider_message_id = coalesce(m.provider_message_id, u.sid),
        status = CASE WHEN m.status = 'sending' THEN u.status ELSE m.status END,
        cost = coalesce(m.cost, u.cost), sent_at = coalesce(m.sent_at, ${deps.clock.now()}::timestamptz), updated_at = now()
      FROM unnest(${col((a) => a.id)}::bigint[], ${col((a) => a.r.providerMessageId)}::text[], ${col((a) => a.r.status)}::text[], ${col((a) => a.r.cost ?? null)}::float8[])
        AS u(id, sid, status, cost)
      WHERE m.id = u.id`.execute(deps.db);
  }
  for (const o of outcomes) if (o.result.kind !== 'accepted') await recordSendResult(deps, o);
}

async function recordSendResult(deps: Deps, input: SendOutcome): Promise<void> {
  const { result, messageId, job } = input;
  const now = deps.clock.now();
  switch (result.kind) {
    case 'accepted':
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
        await settleJobs(trx, [{
          id: job.id, status: 'pending', messageId: null, dueAt: new Date(now.getTime() + Math.max(1000, result.retryAfterMs)),
          reason: `waits: the vendor asked to slow down (${result.code}); the attempt was given back`,
        }]);
      });
      return;
    case 'lost':
      deps.log.warn({ message: messageId, why: result.message }, 'text send answer lost; a delivery report adopts it, else it fails');
      return;
  }
}

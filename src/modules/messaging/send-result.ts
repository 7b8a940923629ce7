import { sql } from 'kysely';
import type { Deps } from '../../deps.ts';
import type { MessageJobRow } from '../../db/tables/messaging.ts';
import { textErrorWords, type TextSendResult } from '../../messaging/text-channel.ts';
import { applyTextErrorCode } from './text-opt-out.ts';
import { giveBackTextAttempt } from '../contact-lifecycle/contact-lifecycle.repository.ts';
import { settleJobs } from './text-jobs.repository.ts';
import { markCostLimitsReached } from './text-usage-limit.ts';

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
    // Texts' cost may have reached a campaign's cost limit: say so now (text-usage-limit.ts).
    const costly = outcomes.filter((o) => o.result.kind === 'accepted' && (o.result.cost ?? 0) > 0).map((o) => o.job.campaign_id);
    await markCostLimitsReached(deps.db, costly, deps.clock.now());
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
        // An unsubscribed number is suppressed account-wide; a landline's other texts are cancelled.
        const message = await trx.selectFrom('messages').select(['id', 'owner_id', 'contact_id', 'to_number', 'source']).where('id', '=', messageId).executeTakeFirst();
        if (message) await applyTextErrorCode(trx, message, result.code, now);
      });
      return;
    case 'rate_limited':
      await deps.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('messages').where('id', '=', messageId).where('status', '=', 'sending').execute();
        await giveBackTextAttempt(trx, job.contact_id);
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

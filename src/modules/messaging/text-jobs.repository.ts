import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { Database } from '../../db/schema.ts';
import type { MessageJobRow } from '../../db/tables/messaging.ts';

/**
 * The text sender's writes of message_jobs. A job is claimed (status claimed, this worker's id
 * and time) and then, in one transaction, either becomes a message (sent), waits again
 * (pending, a later due_at and the reason), or ends (skipped, the reason). A claim whose worker
 * died before that transaction is handed back by the sweep: no message was written for it.
 */
type Trx = Transaction<Database>;

export async function claimDueTextJobs(db: Db, workerId: string, limit: number, now: Date): Promise<MessageJobRow[]> {
  if (limit <= 0) return [];
  const { rows } = await sql<MessageJobRow>`
    UPDATE message_jobs j SET status = 'claimed', locked_by = ${workerId}, locked_at = ${now}::timestamptz, updated_at = now()
    WHERE j.id IN (
      SELECT id FROM message_jobs WHERE status = 'pending' AND due_at <= ${now}::timestamptz
      ORDER BY due_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING j.*`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id), contact_id: Number(r.contact_id), campaign_id: Number(r.campaign_id), owner_id: Number(r.owner_id), call_id: r.call_id === null ? null : Number(r.call_id) }));
}

/** Locks, in id order, the jobs this worker still holds a claim on; returns their ids. */
export async function lockClaimedJobs(trx: Trx, jobIds: number[], workerId: string): Promise<Set<number>> {
  if (jobIds.length === 0) return new Set();
  const rows = await trx.selectFrom('message_jobs').select('id')
    .where('id', 'in', jobIds).where('status', '=', 'claimed').where('locked_by', '=', workerId)
    .orderBy('id').forUpdate().execute();
  return new Set(rows.map((r) => Number(r.id)));
}

export interface JobSettlement {
  id: number;
  status: 'pending' | 'sent' | 'skipped';
  reason: string | null;
  dueAt?: Date | null;
  messageId?: number | null;
}

/**
 * Ends or reschedules many jobs in one statement. Only a job still claimed moves, or one whose
 * message the caller names (a rate-limited send gives its job back): a sender that lost its claim
 * (its lease ran out and another sent the job meanwhile) must not put a sent job back in the
 * queue, where it would be sent a second time. `claimedBy`: only this worker's claims move (a
 * settlement made outside the claim's locks, by a sender whose claim another may have taken).
 */
export async function settleJobs(trx: Trx | Db, items: JobSettlement[], claimedBy?: string): Promise<void> {
  if (items.length === 0) return;
  const col = <T>(f: (j: JobSettlement) => T) => items.map(f);
  await sql`
    UPDATE message_jobs j SET status = u.status, reason = u.reason, locked_by = NULL, locked_at = NULL, updated_at = now(),
      due_at = coalesce(u.due_at, j.due_at), message_id = CASE WHEN u.set_message THEN u.message_id ELSE j.message_id END
    FROM unnest(${col((j) => j.id)}::bigint[], ${col((j) => j.status)}::text[], ${col((j) => j.reason)}::text[],
      ${col((j) => j.dueAt ?? null)}::timestamptz[], ${col((j) => j.messageId ?? null)}::bigint[], ${col((j) => j.messageId !== undefined)}::bool[])
      AS u(id, status, reason, due_at, message_id, set_message)
    WHERE j.id = u.id AND ((j.status = 'claimed' AND (${claimedBy ?? null}::text IS NULL OR j.locked_by = ${claimedBy ?? null})) OR u.set_message)`.execute(trx);
}

/** Claims of this worker not processed (stop()): back to pending at once. */
export async function releaseTextJobs(db: Db, workerId: string, ids: number[]) {
  if (ids.length === 0) return;
  await db.updateTable('message_jobs').set({ status: 'pending', locked_by: null, locked_at: null, updated_at: new Date() })
    .where('id', 'in', ids).where('status', '=', 'claimed').where('locked_by', '=', workerId).execute();
}

/** Claims older than the lease (their worker died between claim and write): back to pending. */
export async function reclaimStaleTextJobs(db: Db, olderThan: Date): Promise<number> {
  const res = await db.updateTable('message_jobs').set({ status: 'pending', locked_by: null, locked_at: null, updated_at: new Date() })
    .where('status', '=', 'claimed').where('locked_at', '<', olderThan).executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/**
 * Sends whose answer was lost and no status report adopted in time: they end failed, never sent
 * again (the text may have gone out; a second copy is worse than none).
 */
export async function failLostSends(db: Db, olderThan: Date): Promise<number> {
  const res = await db.updateTable('messages')
    .set({ status: 'failed', error_message: 'the vendor\'s answer to the send was lost and no delivery report came; not sent again', updated_at: new Date() })
    .where('status', '=', 'sending').where('provider_message_id', 'is', null).where('updated_at', '<', olderThan).executeTakeFirst();
  return Number(res.numUpdatedRows);
}

import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { Database } from '../../db/schema.ts';
import type { MessagePurpose } from '../../db/tables/messaging.ts';
import type { JobWakes } from '../../claim-worker.ts';

/**
 * The queue of texts to write and send. Whoever decides a text is due (a call's end, an inbound
 * text that wants an answer, an operator) inserts a job in its own transaction; the text sender
 * (text-sender.worker.ts) claims due jobs with SKIP LOCKED, asks the law, writes the Message row
 * and sends it. A call is followed by at most one follow-up and one confirmation
 * (message_jobs_one_per_call): a call end applied twice queues nothing more.
 */

/** The job kind (claim-worker wakes and NOTIFY channel) of the text sender. */
export const TEXTS_CHANNEL = 'voice_campaigns_texts';

export interface NewMessageJob {
  ownerId: number;
  campaignId: number;
  contactId: number;
  callId?: number | null;
  purpose: MessagePurpose;
  /** The text as given (an operator's); omitted: written at send time. */
  body?: string | null;
  replyToMessageId?: number | null;
  sentBy?: { userId: number | null; subUserId: number | null } | null;
  dueAt: Date;
  reason?: string | null;
}

type Trx = Transaction<Database> | Db;

/** Inserts the jobs (a call's follow-up twice is kept once); returns the new jobs' ids. */
export async function insertMessageJobs(trx: Trx, jobs: NewMessageJob[]): Promise<number[]> {
  if (jobs.length === 0) return [];
  const rows = await trx
    .insertInto('message_jobs')
    .values(jobs.map((j) => ({
      owner_id: j.ownerId, campaign_id: j.campaignId, contact_id: j.contactId, call_id: j.callId ?? null,
      purpose: j.purpose, body: j.body ?? null, reply_to_message_id: j.replyToMessageId ?? null,
      sent_by_user_id: j.sentBy?.userId ?? null, sent_by_sub_user_id: j.sentBy?.subUserId ?? null,
      due_at: j.dueAt, reason: j.reason ?? null,
    })))
    .onConflict((oc) => oc.columns(['call_id', 'purpose']).where('call_id', 'is not', null).where('purpose', 'in', ['follow_up', 'confirmation']).doNothing())
    .returning('id')
    .execute();
  return rows.map((r) => Number(r.id));
}

/** Tells the text senders of every process that jobs are due (NOTIFY at commit; this process at once). */
export async function notifyTextsDue(trx: Trx, wakes: JobWakes | undefined): Promise<void> {
  await sql`SELECT pg_notify(${TEXTS_CHANNEL}, '')`.execute(trx);
  if (wakes) setImmediate(() => wakes.wake(TEXTS_CHANNEL));
}

/** Cancels a contact's texts not yet claimed (an opt-out, a deleted contact): returns how many. */
export async function cancelPendingTexts(trx: Trx, contactIds: number[], reason: string): Promise<number> {
  if (contactIds.length === 0) return 0;
  const res = await trx.updateTable('message_jobs')
    .set({ status: 'cancelled', reason, updated_at: new Date() })
    .where('contact_id', 'in', contactIds).where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

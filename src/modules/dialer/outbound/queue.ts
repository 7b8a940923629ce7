import { sql, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { DIALER_CHANNEL, type DialerWake } from '../wake.ts';

/**
 * Putting contacts in the dialer's queue. Invariant: a contact in progress, do_not_disturb or
 * paused is never queued.
 *
 * Lock order: contact rows only, in the caller's transaction: by id for the contacts a
 * creation or an import has just inserted; with FOR UPDATE SKIP LOCKED for the enqueue
 * operations (a contact a dialling round holds is not waited for).
 */

type Trx = Transaction<Database>;

// Contacts in these statuses are never put in the queue: one is already being called,
// the others were told not to be called.
const NEVER_QUEUED = ['in progress', 'do_not_disturb', 'paused'];

/**
 * The statuses a contact created in an auto_calls campaign is queued from. A contact
 * created with an outcome (finished, invalid_number, busy: history being imported) keeps
 * it: queueing it overwrote the status and called it again.
 */
export const QUEUED_ON_CREATION: readonly string[] = ['new', 'awaiting_queue'];

/**
 * Puts contacts in the dialer's queue now. Called in the caller's transaction by every
 * way a contact arrives when its campaign has auto_calls (API, bulk import,
 * integration), and by the enqueue operations. Returns the ids actually queued.
 * Queueing does not look at calls_attempts: an explicit enqueue gives one more call
 * even past max_call_attempts (retries after it follow the usual rules). `wake` is this
 * process's dialer (deps.dialerWake), absent in a process that runs none: NOTIFY and the
 * tick reach the dialers elsewhere.
 */
export async function queueContactsNow(trx: Trx, input: { contactIds: number[]; reason: string; wake: DialerWake | undefined }): Promise<number[]> {
  if (input.contactIds.length === 0) return [];
  const rows = await trx
    .updateTable('contacts')
    .set({ status: 'added_to_queue', next_action_time: sql<Date>`now()`, next_action_reason: input.reason, updated_at: sql<Date>`now()` })
    .where('id', 'in', input.contactIds)
    .where('status', 'not in', NEVER_QUEUED)
    .returning('id')
    .execute();
  if (rows.length > 0) await notifyDialer(trx, input.wake);
  return rows.map((r) => r.id);
}

/**
 * Queues a campaign's contacts that have `status`, oldest first, at most `limit` (all
 * when null). Returns how many were queued.
 */
export async function queueCampaignContacts(trx: Trx, input: { campaignId: number; status: string; limit: number | null; reason: string; wake: DialerWake }): Promise<number> {
  if (NEVER_QUEUED.includes(input.status)) return 0;
  const result = await sql`
    UPDATE contacts SET status = 'added_to_queue', next_action_time = now(), next_action_reason = ${input.reason}, updated_at = now()
    WHERE id IN (
      SELECT id FROM contacts WHERE campaign_id = ${input.campaignId} AND status = ${input.status}
      ORDER BY created_at, id ${input.limit === null ? sql`` : sql`LIMIT ${input.limit}`}
      FOR UPDATE SKIP LOCKED)`.execute(trx);
  const n = Number(result.numAffectedRows ?? 0);
  if (n > 0) await notifyDialer(trx, input.wake);
  return n;
}

/** NOTIFY is delivered at commit to dialers in other processes; this process is woken directly. */
async function notifyDialer(trx: Trx, wake: DialerWake | undefined) {
  await sql`SELECT pg_notify(${DIALER_CHANNEL}, '')`.execute(trx);
  // After the caller's commit, not before, the contact is visible: wake on the next turn.
  if (wake) setImmediate(wake.wake);
}

import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { queueCampaignByStatus, queueContacts } from './contact-lifecycle.repository.ts';

/**
 * Putting contacts in the queue, and telling the channels that contacts are due. Invariant: a
 * contact in progress, do_not_disturb or paused is never queued (NEVER_QUEUED).
 *
 * Lock order: contact rows only, in the caller's transaction: by id for the contacts a
 * creation or an import has just inserted; with FOR UPDATE SKIP LOCKED for the enqueue
 * operations (a contact a dialling round holds is not waited for).
 */

type Trx = Transaction<Database>;

/** The NOTIFY channel on which processes hear that contacts became due (the dialer listens). */
export const CONTACTS_DUE_CHANNEL = 'voice_campaigns_dialer';

/** This process's listener for due contacts (the dialer's wake-up), absent in a process that runs none. */
export interface DueWake {
  wake(): void;
}

/**
 * Puts contacts in the queue now. Called in the caller's transaction by every way a contact
 * arrives when its campaign has auto_calls (API, bulk import, integration), and by the enqueue
 * operations. Returns the ids actually queued. Queueing does not look at calls_attempts: an
 * explicit enqueue gives one more call even past max_call_attempts (retries after it follow
 * the usual rules). NOTIFY and the tick reach the dialers of other processes.
 */
export async function queueContactsNow(trx: Trx, input: { contactIds: number[]; reason: string; wake: DueWake | undefined }): Promise<number[]> {
  const queued = await queueContacts(trx, input.contactIds, input.reason);
  if (queued.length > 0) await notifyDue(trx, input.wake);
  return queued;
}

/** Queues a campaign's contacts that have `status`, oldest first, at most `limit` (all when null). Returns how many were queued. */
export async function queueCampaignContacts(trx: Trx, input: { campaignId: number; status: string; limit: number | null; reason: string; wake: DueWake }): Promise<number> {
  const n = await queueCampaignByStatus(trx, input);
  if (n > 0) await notifyDue(trx, input.wake);
  return n;
}

/** NOTIFY is delivered at commit to other processes; this process is woken directly. */
async function notifyDue(trx: Trx, wake: DueWake | undefined) {
  await sql`SELECT pg_notify(${CONTACTS_DUE_CHANNEL}, '')`.execute(trx);
  // After the caller's commit, not before, the contact is visible: wake on the next turn.
  if (wake) setImmediate(wake.wake);
}

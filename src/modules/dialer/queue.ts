import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Puts contacts in the dialer's queue now. Called in the caller's transaction by every
 * way a contact arrives when its campaign has auto_calls (API, bulk import,
 * integration), and by the enqueue operations. Returns the ids actually queued.
 * The dialer issue owns the rules (which statuses may be queued, attempts).
 */
export async function queueContactsNow(
  trx: Transaction<Database>,
  input: { contactIds: number[]; reason: string },
): Promise<number[]> {
  if (input.contactIds.length === 0) return [];
  const rows = await trx
    .updateTable('contacts')
    .set({ status: 'added_to_queue', next_action_time: sql<Date>`now()`, next_action_reason: input.reason, updated_at: sql<Date>`now()` })
    .where('id', 'in', input.contactIds)
    .where('status', 'not in', ['in progress', 'do_not_disturb', 'paused'])
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

import { sql } from 'kysely';
import { boundedCount, type ListCount } from '../../db/bounded-list.ts';
import type { Db } from '../../db/connection.ts';
import type { Principal } from '../auth/principal.ts';
import { matchingCalls, type CallFilters } from './calls.repository.ts';

/** Rows of one owner in call_counts past which a read folds them (call_counts_compact). */
const COMPACT_AFTER_ROWS = 2000;

/**
 * The number of calls the filters match. Without filters, or with only statuses and
 * campaigns, it is exact and read from call_counts (kept by triggers on calls, migration
 * 0021); any other filter counts at most EXACT_COUNT_UP_TO calls, then estimates.
 */
export async function countCalls(db: Db, principal: Principal, filters: CallFilters): Promise<ListCount & { bounded: boolean }> {
  const others = Object.entries(filters).filter(([key, value]) => value !== undefined && key !== 'statuses' && key !== 'campaignIds');
  if (others.length > 0) return { ...(await boundedCount(db, matchingCalls(db, principal, filters))), bounded: true };
  return { count: await countedCalls(db, principal, filters), exact: true, bounded: false };
}

/** Every call the principal may see, exact (call_counts). */
export const visibleCalls = (db: Db, principal: Principal) => countedCalls(db, principal, {});

async function countedCalls(db: Db, principal: Principal, f: CallFilters): Promise<number> {
  let q = db.selectFrom('call_counts').where('call_counts.owner_id', '=', principal.ownerId);
  if (f.statuses && f.statuses.length > 0) q = q.where('call_counts.status', 'in', f.statuses);
  if (f.campaignIds && f.campaignIds.length > 0) q = q.where('call_counts.campaign_id', 'in', f.campaignIds);
  if (principal.kind === 'sub_user') {
    const granted = db.selectFrom('campaign_sub_users').select('campaign_id').where('sub_user_id', '=', principal.subUserId);
    q = q.where('call_counts.campaign_id', 'in', granted);
  }
  const row = await q
    .select((eb) => [eb.fn.sum<number | null>('call_counts.calls').as('calls'), eb.fn.countAll<number>().as('rows')])
    .executeTakeFirstOrThrow();
  if (Number(row.rows) > COMPACT_AFTER_ROWS) await sql`SELECT call_counts_compact(${principal.ownerId})`.execute(db);
  return Number(row.calls ?? 0);
}

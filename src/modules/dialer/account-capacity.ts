import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Db } from '../../db/connection.ts';

/**
 * An account's cap on its calls in progress at once (all campaigns, inbound and outbound) and the
 * part of it kept for inbound calls (account_compliance, migration 0037). Invariant: whatever the
 * number of processes, an outbound call starts only if, with it,
 *
 *     outbound_live + max(inbound_live, reserved_inbound_calls) <= max_concurrent_calls
 *
 * Inbound calls are never refused here (the vendor has already delivered them): they use the
 * reserve first, and beyond it the room outbound calls would have taken. The counts are taken,
 * and the calls they allow are written, under the account's advisory lock, which a dialling round
 * and an inbound call both hold until they commit their call rows.
 *
 * Lock order: the lock is waited for (a round cannot skip an account the way it skips a busy
 * campaign: the account's every campaign would be skipped with it). That is safe because it is
 * taken after every lock a round holds and that anyone else waits for:
 *   - a dialling round: cap lock → contacts (SKIP LOCKED) → campaign try-locks → these account
 *     locks, in owner-id order → number cap locks → vendor route rows → call rows;
 *   - an inbound call: its contact row → its account's lock → its call row.
 * Nobody waits for a campaign lock (try-locks) nor, holding an account lock, for a contact row (the
 * round's contacts are its own, claimed with SKIP LOCKED; the inbound call locked its contact
 * first), so a holder of an account lock only ever waits for locks taken after it in that order
 * (number cap locks, route rows, call rows). Accounts without a cap take no lock and pay one
 * indexed read. The round takes its calls' start_time after these locks, so a call never starts,
 * on the record, before the end of a call whose place it took.
 */

type Trx = Transaction<Database>;

/** Advisory lock class of an account's concurrency (7301 campaigns, 7302 call caps, 7303 text caps). */
const ACCOUNT_LOCK_CLASS = 7_304;

export interface AccountCapacity {
  max: number;
  reserve: number;
  outbound: number;
  inbound: number;
}

/** How many more outbound calls the account may start now. */
export const outboundRoom = (c: AccountCapacity): number => c.max - c.outbound - Math.max(c.inbound, c.reserve);

/** The rule as a person reads it, for a contact held back by it. */
export const accountBusyReason = (c: AccountCapacity): string =>
  `the account's concurrent calls are in use (${c.outbound + c.inbound} of ${c.max}${c.reserve > 0 ? `, ${c.reserve} kept for inbound` : ''})`;

/**
 * Locks the capped ones of these accounts, in owner-id order (waited), and counts their calls in
 * progress by direction under the locks. Accounts missing from the answer have no cap.
 */
export async function lockAccountCapacity(trx: Trx, ownerIds: number[]): Promise<Map<number, AccountCapacity>> {
  const ids = [...new Set(ownerIds)].sort((a, b) => a - b);
  if (ids.length === 0) return new Map();
  const capped = await trx.selectFrom('account_compliance').select('owner_id')
    .where('owner_id', 'in', ids).where('max_concurrent_calls', 'is not', null).orderBy('owner_id').execute();
  if (capped.length === 0) return new Map();
  const locked = capped.map((r) => Number(r.owner_id));
  await sql`
    SELECT pg_advisory_xact_lock(${ACCOUNT_LOCK_CLASS}, u.o::int)
    FROM unnest(${locked}::bigint[]) WITH ORDINALITY AS u(o, n) ORDER BY u.n`.execute(trx);
  // Read again under the lock: the settings may have changed while it was waited for.
  return countUnder(trx, locked);
}

/** The capacity and live counts of these accounts (exact under their locks). */
async function countUnder(db: Db, ownerIds: number[]): Promise<Map<number, AccountCapacity>> {
  const { rows } = await sql<{ owner_id: number; max: number; reserve: number; outbound: number; inbound: number }>`
    SELECT s.owner_id, s.max_concurrent_calls AS max, s.reserved_inbound_calls AS reserve,
           count(k.id) FILTER (WHERE k.call_type IS DISTINCT FROM 'inbound')::int AS outbound,
           count(k.id) FILTER (WHERE k.call_type = 'inbound')::int AS inbound
    FROM account_compliance s LEFT JOIN calls k ON k.owner_id = s.owner_id AND k.status = 'in progress'
    WHERE s.owner_id = ANY(${ownerIds}::bigint[]) AND s.max_concurrent_calls IS NOT NULL
    GROUP BY s.owner_id, s.max_concurrent_calls, s.reserved_inbound_calls`.execute(db);
  return new Map(rows.map((r) => [Number(r.owner_id), { max: r.max, reserve: r.reserve, outbound: r.outbound, inbound: r.inbound }]));
}

/**
 * The claim's estimate (no lock): each capped account's outbound room, so a round claims no more
 * contacts of an account than it may call (an account at its cap would otherwise have its
 * contacts claimed and put back every round). Recounted under the lock by lockAccountCapacity.
 */
export const accountRoomSql = () => sql`
  SELECT s.owner_id, s.max_concurrent_calls
           - count(k.id) FILTER (WHERE k.call_type IS DISTINCT FROM 'inbound')
           - greatest(count(k.id) FILTER (WHERE k.call_type = 'inbound'), s.reserved_inbound_calls) AS free
  FROM account_compliance s LEFT JOIN calls k ON k.owner_id = s.owner_id AND k.status = 'in progress'
  WHERE s.max_concurrent_calls IS NOT NULL
  GROUP BY s.owner_id, s.max_concurrent_calls, s.reserved_inbound_calls`;

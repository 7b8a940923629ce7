import { sql, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/**
 * The concurrency limits' locks. Invariant: the calls in progress never exceed a campaign's
 * concurrent_call_limit nor MAX_CONCURRENT_CALLS, whatever the number of dialling rounds at
 * once: each limit is counted, and the calls it allows are written, while its advisory lock
 * is held (transaction-scoped, so a commit or a rollback releases it).
 *
 * Lock order, within one dialling round (outbound.service.ts):
 *   1. (LOCK_CLASS, 0), the service-wide cap, only when MAX_CONCURRENT_CALLS > 0: waited
 *      for, before anything else is locked, so rounds queue on it one at a time;
 *   2. the claimed contact rows (due-contacts-claim.ts, SKIP LOCKED: never waited for);
 *   3. (LOCK_CLASS, campaign id) for each claimed campaign, in id order, with try-locks:
 *      a campaign another round holds is skipped, never waited for;
 *   4. (7304, owner id) for each capped account, in owner order, waited for (../account-capacity.ts:
 *      safe because nothing waits for a campaign lock, and a holder of an account lock waits only
 *      for what comes after it here); then the number cap locks and the vendor route rows;
 *   5. the new call rows (call-rows.ts).
 * Ending a call (call-events/) takes none of these advisory locks: a slot freed meanwhile
 * is seen by the next round's count.
 */

type Trx = Transaction<Database>;

// Advisory lock namespace of the dialer: (LOCK_CLASS, campaign id) serialises the
// concurrency count of one campaign; (LOCK_CLASS, 0) the service-wide cap.
const LOCK_CLASS = 7301;

export interface DialCampaign {
  id: number;
  owner_id: number;
  title: string;
  campaign_type: string;
  campaign_phone: string | null;
  phones: string[] | null;
  /** The vendor's id of each of `phones` (same order), null where it has none. */
  phone_ids: (string | null)[] | null;
  /** Each of `phones`' daily cap (same order), null where it has none. */
  phone_caps: (number | null)[] | null;
  assistant_id: number | null;
  /** The assistant's provider; null = VOICE_PROVIDER. */
  route_provider: string | null;
  route_connection_id: number | null;
  concurrent_call_limit: number | null;
  call_allowed_from_time: string | null;
  call_allowed_to_time: string | null;
  work_schedule: unknown;
  is_paused: boolean;
  is_archive: boolean;
  limit_reached: boolean;
  limit_start: Date | null;
  limit_end: Date | null;
  limit_value: number | null;
  limit_unit: string | null;
  max_call_attempts: number | null;
  call_interval: number[] | null;
  live: number;
}

/**
 * Takes the dialer locks of those campaigns no other worker holds (try-lock: a worker
 * that finds a campaign busy leaves its contacts for the next round instead of waiting
 * idle) and reads them. Campaigns missing from the answer were not locked.
 */
export async function lockCampaigns(trx: Trx, ids: number[]): Promise<Map<number, DialCampaign>> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  if (sorted.length === 0) return new Map();
  const { rows: locked } = await sql<{ id: number }>`
    SELECT id FROM unnest(${sorted}::bigint[]) AS id WHERE pg_try_advisory_xact_lock(${LOCK_CLASS}, id::int)`.execute(trx);
  if (locked.length === 0) return new Map();
  const { rows } = await sql<DialCampaign>`
    SELECT cp.id, cp.owner_id, cp.title, cp.campaign_type, cp.campaign_phone, cp.concurrent_call_limit,
           cp.call_allowed_from_time::text AS call_allowed_from_time, cp.call_allowed_to_time::text AS call_allowed_to_time,
           cp.work_schedule, cp.is_paused, cp.is_archive, cp.limit_reached, cp.limit_start, cp.limit_end, cp.limit_value,
           cp.limit_unit, cp.max_call_attempts, cp.call_interval,
           (SELECT array_agg(p.phone_number ORDER BY p.id) FROM phone_numbers p WHERE p.campaign_id = cp.id) AS phones,
           (SELECT array_agg(p.provider_number_id ORDER BY p.id) FROM phone_numbers p WHERE p.campaign_id = cp.id) AS phone_ids,
           (SELECT array_agg(p.daily_cap ORDER BY p.id) FROM phone_numbers p WHERE p.campaign_id = cp.id) AS phone_caps,
           cp.assistant_id, a.provider AS route_provider, a.voice_connection_id AS route_connection_id,
           (SELECT count(*)::int FROM calls k WHERE k.campaign_id = cp.id AND k.status = 'in progress') AS live
    FROM campaigns cp LEFT JOIN assistants a ON a.id = cp.assistant_id AND a.owner_id = cp.owner_id
    WHERE cp.id = ANY(${locked.map((r) => r.id)}::bigint[])`.execute(trx);
  return new Map(rows.map((r) => [r.id, r]));
}

/** Service-wide cap: the number of calls that may still start, under its own lock. */
export async function lockGlobalRoom(trx: Trx, max: number): Promise<number> {
  await sql`SELECT pg_advisory_xact_lock(${LOCK_CLASS}, 0)`.execute(trx);
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM calls WHERE status = 'in progress'`.execute(trx);
  return max - (rows[0]?.n ?? 0);
}

import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { FAILURE_STATUSES, PROTECTION_DEFAULTS } from './protection.schemas.ts';
import { insertAuditEvent } from '../audit/audit.repository.ts';
import { enqueueCampaignPausedDeliveries } from '../webhooks/campaign-event.ts';

type Trx = Transaction<Database>;

/** One pause the breaker made: the figures the API, the audit trail and the webhook say. */
export interface BreakerTrip {
  id: number;
  campaign_id: number;
  owner_id: number;
  failures: number;
  attempts: number;
  window_seconds: number;
  failure_rate_threshold: number;
  min_attempts: number;
}

/**
 * The circuit breaker: judges the campaigns of calls that just ended, in the transaction that
 * ended them, and pauses each whose failure rate over its window reached its threshold.
 * Invariant: a campaign pauses once per run of failures, with one trip row, one audit event
 * and one webhook delivery per integration, whatever the number of processes ending its calls.
 *
 * When: a campaign is judged by a batch that ends one of its calls as a failure. A batch of
 * successes only lowers the rate, so a healthy campaign costs nothing here: no lock, no count.
 * (The one case this defers: failures that reached the rate while under min_attempts, then a
 * success that makes up the minimum; the campaign pauses at its next failure.)
 *
 * How it holds on PostgreSQL (READ COMMITTED): the caller holds the judged campaigns' rows,
 * locked in id order before any is written (lockCampaignRows), so two batches of one campaign
 * judge one after the other. The count is a later statement, whose snapshot is
 * taken once the lock is held: it sees the calls of a batch that committed while this one
 * waited, so 3 failures ended in one process and 2 in another make 5. The batch that comes
 * second finds the campaign paused and judges nothing.
 *
 * Cost: two statements per batch with failures (lock, judge), whatever its size (and one per trip, in the rare batch that
 * trips, for the audit event, plus one for the webhook deliveries); the count reads each
 * campaign's calls of the window through calls_campaign_end_idx (migration 0035), not its history.
 */

/** The campaigns with an outbound call that ended as a failure (FAILURE_STATUSES) among these. */
export function failingCampaigns(ends: { campaignId: number; callType: string | null; status: string }[]): Set<number> {
  const failures: readonly string[] = FAILURE_STATUSES;
  return new Set(ends.filter((e) => e.callType === 'outbound' && failures.includes(e.status)).map((e) => e.campaignId));
}

/**
 * Locks campaign rows in id order, FOR NO KEY UPDATE: a round inserting a call for one (its
 * foreign key takes KEY SHARE) never waits for it. One statement, only when there are rows to lock.
 */
export async function lockCampaignRows(trx: Trx, campaignIds: number[]): Promise<void> {
  const ids = [...new Set(campaignIds)].sort((a, b) => a - b);
  if (ids.length === 0) return;
  await sql`SELECT id FROM campaigns WHERE id = ANY(${ids}::bigint[]) ORDER BY id FOR NO KEY UPDATE`.execute(trx);
}

/**
 * Judges the campaigns (their rows locked by the caller in this transaction); answers the
 * pauses it made. A trip left open on a running campaign (resumed outside the service, by psql)
 * is over: closed here, so it never shows as the reason of a later pause.
 */
export async function judgeCampaigns(trx: Trx, campaignIds: number[], now: Date): Promise<BreakerTrip[]> {
  const ids = [...new Set(campaignIds)];
  if (ids.length === 0) return [];
  const d = PROTECTION_DEFAULTS;
  const { rows: trips } = await sql<BreakerTrip>`
    WITH settings AS (
      SELECT c.id AS campaign_id, c.owner_id,
             coalesce(p.failure_rate_threshold, ${d.failure_rate_threshold}::float8) AS threshold,
             coalesce(p.window_seconds, ${d.window_seconds}::int) AS window_seconds,
             coalesce(p.min_attempts, ${d.min_attempts}::int) AS min_attempts,
             p.counted_since
        FROM campaigns c LEFT JOIN campaign_protection p ON p.campaign_id = c.id
       WHERE c.id = ANY(${ids}::bigint[]) AND NOT c.is_paused AND coalesce(p.breaker_enabled, true)
    ), stale AS (
      UPDATE campaign_breaker_trips t SET resumed_at = ${now}::timestamptz FROM settings s WHERE t.campaign_id = s.campaign_id AND t.resumed_at IS NULL
    ), judged AS (
      SELECT s.*, f.attempts, f.failures FROM settings s CROSS JOIN LATERAL (
        SELECT count(*)::int AS attempts, (count(*) FILTER (WHERE k.status = ANY(${[...FAILURE_STATUSES]}::text[])))::int AS failures
          FROM calls k
         WHERE k.campaign_id = s.campaign_id AND k.end_time IS NOT NULL AND k.call_type = 'outbound'
           AND k.end_time > greatest(${now}::timestamptz - make_interval(secs => s.window_seconds), coalesce(s.counted_since, '-infinity'::timestamptz))
      ) f
    ), tripped AS (
      -- failures / attempts compared as a quotient: 3 / 10 is the same double as 0.3, where 0.3 * 10 is not 3.
      INSERT INTO campaign_breaker_trips (campaign_id, owner_id, failures, attempts, window_seconds, failure_rate_threshold, min_attempts, tripped_at)
      SELECT campaign_id, owner_id, failures, attempts, window_seconds, threshold, min_attempts, ${now}::timestamptz FROM judged
       WHERE attempts >= min_attempts AND failures::float8 / attempts >= threshold
      RETURNING id, campaign_id, owner_id, failures, attempts, window_seconds, failure_rate_threshold, min_attempts
    ), paused AS (
      UPDATE campaigns c SET is_paused = true, updated_at = ${now}::timestamptz FROM tripped t WHERE c.id = t.campaign_id
    )
    SELECT * FROM tripped ORDER BY campaign_id`.execute(trx);
  if (trips.length === 0) return trips;
  await recordTrips(trx, trips, now);
  await enqueueCampaignPausedDeliveries(trx, trips.map((t) => t.id));
  return trips;
}

/** One audit event per trip (a trip is rare: one per campaign and run of failures); the actor is the breaker itself, no user of the account. */
async function recordTrips(trx: Trx, trips: BreakerTrip[], now: Date) {
  for (const t of trips) {
    await insertAuditEvent(trx, {
      owner_id: t.owner_id, actor_user_id: null, actor_sub_user_id: null, actor_api_key_id: null, actor_label: sql<string>`${BREAKER_ACTOR}::text`,
      kind: 'campaign.paused_by_breaker', subject_type: 'campaign', subject_id: t.campaign_id,
      details: {
        reason: 'failure_rate', failures: t.failures, attempts: t.attempts, window_seconds: t.window_seconds,
        failure_rate_threshold: t.failure_rate_threshold, min_attempts: t.min_attempts, at: now.toISOString(),
      },
      ip: null, user_agent: null,
    });
  }
}

/** The audit trail's actor label of a pause the breaker made. */
export const BREAKER_ACTOR = 'circuit breaker';

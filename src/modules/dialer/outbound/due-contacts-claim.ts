import { sql, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { campaignRouteSql } from './vendor-pacing.ts';
import { dueStatusesSql } from '../../contact-lifecycle/contact-states.ts';
import { reachableCampaignSql } from '../../contact-lifecycle/reachable-campaign.ts';
import { accountRoomSql } from '../account-capacity.ts';

/**
 * The claim of due contacts. Invariant: a due contact is dialled by at most one round at a
 * time: the round that claims it holds its row lock until it commits, and in that
 * transaction writes its call row and moves it to `in progress`, moves it to a later time,
 * or leaves it due as it was (its campaign busy with another round, or no longer dialable).
 *
 * Lock order: taken after the service-wide cap lock (concurrency-locks.ts, when
 * MAX_CONCURRENT_CALLS is set) and before the campaign locks. The contact rows are locked
 * with FOR UPDATE SKIP LOCKED: a round never waits for a contact another round, an event
 * batch ending a call (call-events/call-finish.ts) or a queue operation holds; it skips it.
 * The live-call counts and campaign flags are read without locks (recounted under the
 * campaign lock before dialling).
 */

type Trx = Transaction<Database>;

export interface ClaimedContact {
  id: number;
  campaign_id: number;
  owner_id: number;
  phone_number: string;
  timezone: string | null;
  contact_data: Record<string, unknown> | null;
  calls_attempts: number;
  status: string;
  /** When it became due: a contact held back by its account's cap stays due from then (round-plan.ts). */
  next_action_time: Date;
}

/**
 * The claim: due contacts of dialable campaigns, at most each campaign's free slots
 * (counted without a lock here, recounted under the campaign lock before dialling), in
 * one statement with FOR UPDATE SKIP LOCKED so concurrent workers never claim the same
 * contact. Campaigns are visited in random order so no campaign starves another.
 */
export async function claimDueContacts(trx: Trx, input: {
  now: Date;
  limit: number;
  /** Paced vendor routes' room (vendor-pacing.ts): a campaign takes no more than its route's. */
  routeRooms?: Map<string, number>;
  defaultProvider?: string;
}): Promise<ClaimedContact[]> {
  const rooms = input.routeRooms ?? new Map<string, number>();
  const routeCap = rooms.size === 0
    ? sql<number>`${input.limit}::int`
    : sql<number>`coalesce((SELECT u.room FROM unnest(${[...rooms.keys()]}::text[], ${[...rooms.values()].map((n) => Math.min(n, input.limit))}::int[]) AS u(route, room)
                   WHERE u.route = (SELECT ${campaignRouteSql(input.defaultProvider ?? 'sim')} FROM (SELECT 1) one LEFT JOIN assistants a ON a.id = cp.assistant_id)), ${input.limit}::int)`;
  const { rows } = await sql<ClaimedContact>`
    WITH live AS MATERIALIZED (
      -- Counted once (MATERIALIZED): inlined, a stale row estimate can make the planner
      -- recount the live calls for every campaign.
      SELECT campaign_id, count(*)::int AS n FROM calls WHERE status = 'in progress' GROUP BY campaign_id
    ), account AS MATERIALIZED (
      -- Capped accounts' outbound room (account-capacity.ts); an account's every campaign may
      -- claim up to it, the lock's recount keeps the rest due.
      ${accountRoomSql()}
    ), room AS MATERIALIZED (
      SELECT cp.id,
             least(CASE WHEN coalesce(cp.concurrent_call_limit, 0) > 0 THEN cp.concurrent_call_limit - coalesce(l.n, 0) ELSE ${input.limit} END, ${routeCap},
                   coalesce(acc.free, ${input.limit})) AS free
      FROM campaigns cp LEFT JOIN live l ON l.campaign_id = cp.id LEFT JOIN account acc ON acc.owner_id = cp.owner_id
      WHERE ${reachableCampaignSql('cp')}
        AND EXISTS (SELECT 1 FROM contacts d WHERE d.campaign_id = cp.id AND d.status IN ${dueStatusesSql()} AND d.next_action_time <= ${input.now})
      ORDER BY random()
    )
    SELECT c.* FROM room r CROSS JOIN LATERAL (
      SELECT id, campaign_id, owner_id, phone_number, timezone, contact_data, calls_attempts, status, next_action_time
      FROM contacts c
      WHERE c.campaign_id = r.id AND c.status IN ${dueStatusesSql()} AND c.next_action_time <= ${input.now}
      ORDER BY c.next_action_time, c.id
      LIMIT greatest(r.free, 0)
      FOR UPDATE SKIP LOCKED
    ) c
    WHERE r.free > 0
    LIMIT ${input.limit}`.execute(trx);
  return rows;
}

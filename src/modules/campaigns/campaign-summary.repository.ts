import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { dueStatusesSql } from '../contact-lifecycle/contact-states.ts';

/**
 * The campaign summary's SQL. Each statement is bound to one campaign and served by an
 * index, because a campaign can hold millions of contacts:
 *  - counts by status: one GROUP BY over the campaign's rows, found by contacts_campaign_idx
 *    (campaign_id, id DESC). No index holds status, so every row of the campaign is read
 *    (an index on (campaign_id, status) would make it index-only, at a cost to every
 *    contact write);
 *  - calls in progress: calls_live_campaign_idx (campaign_id) WHERE status = 'in progress';
 *  - next due contacts: contacts_due_campaign_order_idx (campaign_id, next_action_time, id) or
 *    contacts_due_idx (next_action_time), both WHERE status IN ('added_to_queue',
 *    'call_scheduled'), read in order with a LIMIT.
 */

export async function countContactsByStatus(db: Db, campaignId: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('contacts')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('campaign_id', '=', campaignId)
    .groupBy('status')
    .execute();
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

/** Counted as the dialer counts a campaign's live calls against concurrent_call_limit (inbound ones too). */
export async function countCallsInProgress(db: Db, campaignId: number): Promise<number> {
  const row = await db
    .selectFrom('calls')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('campaign_id', '=', campaignId)
    .where('status', '=', 'in progress')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface DueCandidate {
  id: number;
  phone_number: string;
  timezone: string | null;
  next_action_time: Date;
  next_action_reason: string | null;
}

/**
 * The contacts the dialer will claim first, by next_action_time. The dialer breaks ties
 * by id; this query does not need to, since among contacts due at the same instant (a bulk
 * enqueue gives them all one now()) any gives the same time. The status list is written as
 * literals, exactly as the partial index's predicate, so the planner can use that index. A queued
 * contact without a time is never claimed (the claim asks next_action_time <= now).
 */
export async function firstDueContacts(db: Db, campaignId: number, limit: number): Promise<DueCandidate[]> {
  const { rows } = await sql<DueCandidate>`
    SELECT id, phone_number, timezone, next_action_time, next_action_reason
    FROM contacts
    WHERE campaign_id = ${campaignId} AND status IN ${dueStatusesSql()}
      AND next_action_time IS NOT NULL
    ORDER BY next_action_time
    LIMIT ${limit}`.execute(db);
  return rows;
}

import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { dueStatusesSql } from './contact-states.ts';
import { CAMPAIGN_BLOCK_CODES, REVIVABLE_CODES } from './next-action.ts';
import { campaignBlockReasonSql, campaignBlockSql, reachableCampaignSql } from './reachable-campaign.ts';

/**
 * Keeps next_action_time/_code/_reason truthful for contacts no channel may reach because of
 * their campaign: due contacts of paused, archived, inbound or limit-reached campaigns wait as
 * `awaiting_queue` (instead of being scanned on every dialer round), and go back to
 * `added_to_queue` as soon as the cause is gone. Contacts waiting because the schedule never
 * opens come back when the campaign is edited. The campaign rule is reachable-campaign.ts.
 *
 * Every statement is bound to indexes, whatever the number of contacts: the rows to change are
 * first found per campaign (and per code) through an index, in a subquery the planner cannot
 * flatten (OFFSET 0), and then updated by primary key. Written as a plain join, the planner
 * hashed all contacts: one archived campaign made the park read every contact each dialer round
 * (a sequential scan), and the revive read every awaiting_queue contact of every active campaign
 * (imported contacts not yet queued). The conditions are repeated on the updated row, so a row
 * changed meanwhile (claimed by the dialer) is re-checked at its latest version.
 *
 * Lock order: contact rows by primary key, each statement on its own (autocommit); a row a
 * dialling round holds is waited for, never the reverse (rounds do not wait on the sweep).
 */

const blockedCampaigns = sql`b AS MATERIALIZED (
    SELECT cp.id, ${campaignBlockSql('cp')} AS code_now,
      CASE WHEN NOT cp.is_paused AND NOT cp.is_archive AND cp.campaign_type = 'Outbound' THEN cp.limit_end END AS wait_until
    FROM campaigns cp WHERE NOT ${reachableCampaignSql('cp')})`;

/** A contact parked for its campaign `b`'s cause (until the limit period ends, for a limit). */
const parkedBy = sql`status = 'awaiting_queue', next_action_time = b.wait_until, next_action_code = b.code_now,
  next_action_reason = ${campaignBlockReasonSql(sql`b.code_now`)}, updated_at = now()`;

/** Parks the due contacts of blocked campaigns, and re-parks waiting ones whose campaign's cause changed. Returns how many moved. */
export async function parkContactsOfBlockedCampaigns(db: Db, now: Date): Promise<number> {
  const due = dueStatusesSql();
  // Due contacts of blocked campaigns (contacts_due_campaign_order_idx).
  const parkedDue = await sql`
    WITH ${blockedCampaigns}
    UPDATE contacts c SET ${parkedBy}
    FROM b
    WHERE c.id = ANY(ARRAY(
        SELECT d.id FROM b CROSS JOIN LATERAL (
          SELECT d.id FROM contacts d WHERE d.campaign_id = b.id AND d.status IN ${due} AND d.next_action_time <= ${now} OFFSET 0) d))
      AND c.campaign_id = b.id AND c.status IN ${due} AND c.next_action_time <= ${now}`.execute(db);
  // Already waiting, for a campaign cause that changed (paused, then archived): one probe of
  // contacts_parked_code_idx (campaign_id, next_action_code, ...) per blocked campaign and other
  // code, so the contacts already waiting for the current cause are not read again.
  const codes = [...CAMPAIGN_BLOCK_CODES];
  const reparked = await sql`
    WITH ${blockedCampaigns}
    UPDATE contacts c SET ${parkedBy}
    FROM b
    WHERE c.id = ANY(ARRAY(
        SELECT d.id FROM b CROSS JOIN unnest(${codes}::text[]) AS r(code) CROSS JOIN LATERAL (
          SELECT d.id FROM contacts d WHERE d.campaign_id = b.id AND d.status = 'awaiting_queue' AND d.next_action_code = r.code OFFSET 0) d
        WHERE r.code <> b.code_now))
      AND c.campaign_id = b.id AND c.status = 'awaiting_queue'
      AND c.next_action_code = ANY(${codes}::text[]) AND c.next_action_code <> b.code_now`.execute(db);
  return Number(parkedDue.numAffectedRows ?? 0) + Number(reparked.numAffectedRows ?? 0);
}

/**
 * Queues again the contacts waiting for a cause that is gone: one probe of
 * contacts_parked_code_idx (campaign_id, next_action_code, updated_at) per reachable campaign and
 * code. Returns how many.
 */
export async function reviveContactsOfReachableCampaigns(db: Db, now: Date): Promise<number> {
  const revived = await sql`
    UPDATE contacts c SET status = 'added_to_queue', next_action_time = ${now}, next_action_code = 'requeued',
      next_action_reason = 'back in the queue: ' || c.next_action_reason || ' no longer applies', updated_at = now()
    FROM campaigns cp
    WHERE c.id = ANY(ARRAY(
        SELECT d.id FROM campaigns a CROSS JOIN unnest(${REVIVABLE_CODES}::text[]) AS r(code) CROSS JOIN LATERAL (
          SELECT d.id FROM contacts d WHERE d.campaign_id = a.id AND d.status = 'awaiting_queue' AND d.next_action_code = r.code
            -- no window: only once the campaign was edited since (an index bound too, so
            -- contacts waiting for a schedule that never opens are not read every round)
            AND d.updated_at < CASE WHEN r.code = 'no_window' THEN a.updated_at ELSE 'infinity'::timestamptz END OFFSET 0) d
        WHERE ${reachableCampaignSql('a')}))
      AND c.campaign_id = cp.id AND c.status = 'awaiting_queue' AND ${reachableCampaignSql('cp')}
      AND c.next_action_code = ANY(${REVIVABLE_CODES}::text[])
      AND (c.next_action_code <> 'no_window' OR cp.updated_at > c.updated_at)`.execute(db);
  return Number(revived.numAffectedRows ?? 0);
}

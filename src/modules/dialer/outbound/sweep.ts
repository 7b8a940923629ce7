import { sql } from 'kysely';
import type { Deps } from '../../../deps.ts';
import { DUE_STATUSES } from './due-contacts-claim.ts';
import { refreshUsage } from './usage.ts';
import { ARCHIVED_REASON, CAMPAIGN_REASONS, FUNDS_REASON, INBOUND_REASON, LIMIT_REASON, NO_WINDOW_REASON, PAUSED_REASON } from '../reasons.ts';

/**
 * Keeps next_action_time/next_action_reason truthful for contacts the dialer cannot
 * call because of their campaign: due contacts of paused, archived, inbound or
 * limit-reached campaigns wait as `awaiting_queue` (instead of being scanned on every
 * tick), and go back to `added_to_queue` as soon as the reason is gone. Contacts
 * waiting because the schedule never opens come back when the campaign is edited.
 */
export async function sweepCampaignStates({ deps }: { deps: Deps }): Promise<{ parked: number; revived: number }> {
  const now = deps.clock.now();
  // Limits whose period ended or whose value was raised stop blocking.
  const limited = await deps.db.selectFrom('campaigns').select(['id', 'limit_start', 'limit_end', 'limit_value', 'limit_unit']).where('limit_reached', '=', true).execute();
  for (const c of limited) await deps.db.transaction().execute((trx) => refreshUsage(trx, c, now));

  // Every statement below is bound to indexes, whatever the number of contacts: the rows to
  // change are first found per campaign (and per reason) through an index, in a subquery
  // the planner cannot flatten (OFFSET 0), and then updated by primary key. Written as a
  // plain join, the planner hashed all contacts: one archived campaign made the park read
  // every contact each dialer round (a sequential scan), and the revive read every awaiting_queue contact of every active campaign (imported contacts
  // not yet queued).
  // The conditions are repeated on the updated row, so a row changed meanwhile (claimed
  // by the dialer) is re-checked at its latest version.
  const reasonNow = sql`CASE WHEN cp.is_archive THEN ${ARCHIVED_REASON} WHEN cp.is_paused THEN ${PAUSED_REASON}
        WHEN cp.campaign_type <> 'Outbound' THEN ${INBOUND_REASON} ELSE ${LIMIT_REASON} END`;
  const blocked = sql`b AS MATERIALIZED (
      SELECT cp.id, ${reasonNow} AS reason_now,
        CASE WHEN NOT cp.is_paused AND NOT cp.is_archive AND cp.campaign_type = 'Outbound' THEN cp.limit_end END AS wait_until
      FROM campaigns cp WHERE cp.is_paused OR cp.is_archive OR cp.limit_reached OR cp.campaign_type <> 'Outbound')`;
  const due = sql`(${sql.join(DUE_STATUSES.map((s) => sql.lit(s)))})`;
  // Due contacts of blocked campaigns (contacts_due_campaign_order_idx).
  const parkedDue = await sql`
    WITH ${blocked}
    UPDATE contacts c SET status = 'awaiting_queue', next_action_time = b.wait_until, next_action_reason = b.reason_now, updated_at = now()
    FROM b
    WHERE c.id = ANY(ARRAY(
        SELECT d.id FROM b CROSS JOIN LATERAL (
          SELECT d.id FROM contacts d WHERE d.campaign_id = b.id AND d.status IN ${due} AND d.next_action_time <= ${now} OFFSET 0) d))
      AND c.campaign_id = b.id AND c.status IN ${due} AND c.next_action_time <= ${now}`.execute(deps.db);
  // Already waiting, for a campaign reason that changed (paused, then archived): one probe
  // of contacts_parked_idx (campaign_id, next_action_reason, ...) per blocked campaign and other
  // reason, so the contacts already waiting for the current reason are not read again.
  const campaignReasons = [...CAMPAIGN_REASONS];
  const reparked = await sql`
    WITH ${blocked}
    UPDATE contacts c SET status = 'awaiting_queue', next_action_time = b.wait_until, next_action_reason = b.reason_now, updated_at = now()
    FROM b
    WHERE c.id = ANY(ARRAY(
        SELECT d.id FROM b CROSS JOIN unnest(${campaignReasons}::text[]) AS r(reason) CROSS JOIN LATERAL (
          SELECT d.id FROM contacts d WHERE d.campaign_id = b.id AND d.status = 'awaiting_queue' AND d.next_action_reason = r.reason OFFSET 0) d
        WHERE r.reason <> b.reason_now))
      AND c.campaign_id = b.id AND c.status = 'awaiting_queue'
      AND c.next_action_reason = ANY(${campaignReasons}::text[]) AND c.next_action_reason <> b.reason_now`.execute(deps.db);
  // Waiting for a reason that is gone: one probe of contacts_parked_idx (campaign_id,
  // next_action_reason, updated_at) per dialable campaign and reason.
  const reviveReasons = [...campaignReasons, FUNDS_REASON, NO_WINDOW_REASON];
  const dialable = (t: string) => sql`NOT ${sql.ref(`${t}.is_paused`)} AND NOT ${sql.ref(`${t}.is_archive`)} AND NOT ${sql.ref(`${t}.limit_reached`)} AND ${sql.ref(`${t}.campaign_type`)} = 'Outbound'`;
  const revived = await sql`
    UPDATE contacts c SET status = 'added_to_queue', next_action_time = ${now},
      next_action_reason = 'back in the queue: ' || c.next_action_reason || ' no longer applies', updated_at = now()
    FROM campaigns cp
    WHERE c.id = ANY(ARRAY(
        SELECT d.id FROM campaigns a CROSS JOIN unnest(${reviveReasons}::text[]) AS r(reason) CROSS JOIN LATERAL (
          SELECT d.id FROM contacts d WHERE d.campaign_id = a.id AND d.status = 'awaiting_queue' AND d.next_action_reason = r.reason
            -- no window: only once the campaign was edited since (an index bound too, so
            -- contacts waiting for a schedule that never opens are not read every round)
            AND d.updated_at < CASE WHEN r.reason = ${NO_WINDOW_REASON} THEN a.updated_at ELSE 'infinity'::timestamptz END OFFSET 0) d
        WHERE ${dialable('a')}))
      AND c.campaign_id = cp.id AND c.status = 'awaiting_queue' AND ${dialable('cp')}
      AND c.next_action_reason = ANY(${reviveReasons}::text[])
      AND (c.next_action_reason <> ${NO_WINDOW_REASON} OR cp.updated_at > c.updated_at)`.execute(deps.db);
  const parked = Number(parkedDue.numAffectedRows ?? 0) + Number(reparked.numAffectedRows ?? 0);
  return { parked, revived: Number(revived.numAffectedRows ?? 0) };
}

import { sql } from 'kysely';
import type { Deps } from '../../deps.ts';
import { FUNDS_REASON } from './call-events.service.ts';
import { refreshUsage } from './usage.ts';
import { NO_WINDOW_REASON } from './wake.ts';

export const PAUSED_REASON = 'campaign paused';
export const ARCHIVED_REASON = 'campaign archived';
export const INBOUND_REASON = 'inbound campaign: it places no outbound calls';
export const LIMIT_REASON = 'campaign usage limit reached';

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

  const reasonNow = sql`CASE WHEN cp.is_archive THEN ${ARCHIVED_REASON} WHEN cp.is_paused THEN ${PAUSED_REASON}
        WHEN cp.campaign_type <> 'Outbound' THEN ${INBOUND_REASON} ELSE ${LIMIT_REASON} END`;
  const blocked = sql`(cp.is_paused OR cp.is_archive OR cp.limit_reached OR cp.campaign_type <> 'Outbound')`;
  const parked = await sql`
    UPDATE contacts c SET status = 'awaiting_queue',
      next_action_time = CASE WHEN NOT cp.is_paused AND NOT cp.is_archive AND cp.campaign_type = 'Outbound' THEN cp.limit_end END,
      next_action_reason = ${reasonNow}, updated_at = now()
    FROM campaigns cp
    WHERE c.campaign_id = cp.id AND ${blocked}
      AND ((c.status IN ('added_to_queue', 'call_scheduled') AND c.next_action_time <= ${now})
        -- already waiting, for a campaign reason that changed (paused, then archived)
        OR (c.status = 'awaiting_queue' AND c.next_action_reason IN (${PAUSED_REASON}, ${ARCHIVED_REASON}, ${INBOUND_REASON}, ${LIMIT_REASON})
            AND c.next_action_reason <> ${reasonNow}))`.execute(deps.db);
  const revived = await sql`
    UPDATE contacts c SET status = 'added_to_queue', next_action_time = ${now},
      next_action_reason = 'back in the queue: ' || c.next_action_reason || ' no longer applies', updated_at = now()
    FROM campaigns cp
    WHERE c.campaign_id = cp.id AND c.status = 'awaiting_queue'
      AND NOT cp.is_paused AND NOT cp.is_archive AND NOT cp.limit_reached AND cp.campaign_type = 'Outbound'
      AND c.next_action_reason IN (${PAUSED_REASON}, ${ARCHIVED_REASON}, ${INBOUND_REASON}, ${LIMIT_REASON}, ${FUNDS_REASON}, ${NO_WINDOW_REASON})
      AND (c.next_action_reason <> ${NO_WINDOW_REASON} OR cp.updated_at > c.updated_at)`.execute(deps.db);
  return { parked: Number(parked.numAffectedRows ?? 0), revived: Number(revived.numAffectedRows ?? 0) };
}

import { DateTime } from 'luxon';
import type { Db } from '../../db/connection.ts';
import type { CampaignRow } from '../../db/schema.ts';
import type { Principal } from '../auth/principal.ts';
import { CONTACT_STATUSES } from '../contacts/contacts.schemas.ts';
import { isOpen, isUnrestricted, nextOpening, type WindowRule } from '../contact-lifecycle/calling-window.ts';
import { windowRuleFor } from '../contact-lifecycle/contact-window.ts';
import { complianceOf, quietBounds } from '../compliance/compliance-settings.ts';
import { CAMPAIGN_BLOCKS, NO_WINDOW } from '../contact-lifecycle/next-action.ts';
import { campaignBlock } from '../contact-lifecycle/reachable-campaign.ts';
import { limitActive } from '../contact-lifecycle/usage-limit.ts';
import { requireCampaign } from './campaign-access.ts';
import { pausedBy } from '../breaker/breaker.repository.ts';
import { countCallsInProgress, countContactsByStatus, firstDueContacts, type DueCandidate } from './campaign-summary.repository.ts';
import type { CampaignSummary } from './campaign-summary.schemas.ts';

/**
 * How many due contacts are weighed for the next call. The first one in the dialer's
 * order is not always the first called: a contact due earlier in a closed zone waits
 * while a later one in an open zone is called. Weighing a bounded page keeps the read
 * bounded; when more than this many contacts ahead are all outside their windows, the
 * answer is the earliest among them (a later contact could open earlier).
 */
export const CANDIDATES = 200;

const NOTHING_QUEUED_REASON = 'no contact queued';

export async function campaignSummary({ db, principal, id, now }: { db: Db; principal: Principal; id: number; now: Date }): Promise<CampaignSummary> {
  // One snapshot, so the counts, the live calls and the next contact agree with each other.
  const { campaign, byStatus, live, candidates, quiet, paused } = await db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
    const campaign = await requireCampaign(trx, principal, id);
    const byStatus = await countContactsByStatus(trx, id);
    const live = await countCallsInProgress(trx, id);
    // Nothing is dialled for a blocked campaign, so its queue is not read at all.
    const candidates = blockedReason(campaign) === null ? await firstDueContacts(trx, id, CANDIDATES) : [];
    const quiet = quietBounds((await complianceOf(trx, [campaign.owner_id])).get(campaign.owner_id)!);
    const paused = await pausedBy(trx, campaign);
    return { campaign, byStatus, live, candidates, quiet, paused };
  });

  // Every known status is present, so a client reads by_status.new without a default.
  const by_status: Record<string, number> = Object.fromEntries(CONTACT_STATUSES.map((s) => [s, 0]));
  for (const [status, n] of byStatus) by_status[status] = n;
  const total = [...byStatus.values()].reduce((a, b) => a + b, 0);

  return {
    campaign_id: campaign.id,
    as_of: now,
    contacts: { total, by_status: by_status as CampaignSummary['contacts']['by_status'] },
    calls_in_progress: live,
    ...(await nextCall(campaign, candidates, live, by_status, now, quiet)),
    usage: usageOf(campaign, now),
    paused_by: paused,
  };
}

/** Why the dialer starts no call at all for the campaign (the lifecycle's rule: its claim skips it, the sweep parks its contacts), or null. */
function blockedReason(c: CampaignRow): string | null {
  const code = campaignBlock(c);
  if (code === null) return null;
  if (code === 'usage_limit' && c.limit_end) return `${CAMPAIGN_BLOCKS.usage_limit} until ${c.limit_end.toISOString()} (the end of the limit period)`;
  return CAMPAIGN_BLOCKS[code];
}

type NextCall = Pick<CampaignSummary, 'next_call_at' | 'next_call_reason' | 'next_contact_id'>;

async function nextCall(campaign: CampaignRow, candidates: DueCandidate[], live: number, byStatus: Record<string, number>, now: Date, quiet: [number, number]): Promise<NextCall> {
  const blocked = blockedReason(campaign);
  if (blocked !== null) return { next_call_at: null, next_call_reason: blocked, next_contact_id: null };
  if (candidates.length === 0) {
    const waiting = byStatus.awaiting_queue ?? 0;
    const reason = waiting > 0 ? `${NOTHING_QUEUED_REASON}; ${waiting} awaiting_queue (their next_action_reason says why)` : NOTHING_QUEUED_REASON;
    return { next_call_at: null, next_call_reason: reason, next_contact_id: null };
  }

  // The dialer checks the window when it claims a contact: at its next_action_time, or
  // now for one already due. The verdict depends only on the zones and that instant.
  const verdicts = new Map<string, Date | null>();
  let best: { at: Date; from: Date; contact: DueCandidate; rule: WindowRule } | null = null;
  for (const contact of candidates) {
    const from = contact.next_action_time > now ? contact.next_action_time : now;
    // Candidates come in next_action_time order and none is called before its time:
    // once one starts at or after the best opening, none after it can beat it.
    if (best && from >= best.at) break;
    const rule = await windowRuleFor(campaign, contact, quiet);
    const key = `${rule.zones.join(',')}|${from.getTime()}`;
    if (!verdicts.has(key)) verdicts.set(key, isUnrestricted(rule) || isOpen(rule, from) ? from : nextOpening(rule, from));
    const at = verdicts.get(key)!;
    if (at && (!best || at < best.at)) best = { at, from, contact, rule };
  }
  if (!best) return { next_call_at: null, next_call_reason: NO_WINDOW.reason, next_contact_id: null };

  const { at, from, contact, rule } = best;
  const limit = campaign.concurrent_call_limit ?? 0;
  if (at <= now && limit > 0 && live >= limit) {
    return {
      next_call_at: null,
      next_call_reason: `due now, but all ${limit} concurrent call slots are in use: the next call starts when one ends`,
      next_contact_id: contact.id,
    };
  }
  const reason =
    at > from ? `calling window opens at ${windowOpening(at, rule)}`
    : at <= now ? 'due now'
    : `scheduled${contact.next_action_reason ? `: ${contact.next_action_reason}` : ''}`;
  return { next_call_at: at, next_call_reason: reason, next_contact_id: contact.id };
}

/** "2030-01-08T09:00:00.000-05:00 in America/New_York": the opening in the zone whose window it is. */
function windowOpening(at: Date, rule: WindowRule): string {
  const zones = rule.zones.length > 0 ? rule.zones : [rule.schedule?.timezone ?? 'UTC'];
  return `${DateTime.fromJSDate(at, { zone: zones[0] }).toISO()} in ${zones.join(', ')}`;
}

function usageOf(c: CampaignRow, now: Date): CampaignSummary['usage'] {
  if (c.limit_value === null || c.limit_unit === null) return null;
  return {
    limit_value: c.limit_value,
    limit_unit: c.limit_unit as NonNullable<CampaignSummary['usage']>['limit_unit'],
    limit_usage: c.limit_usage ?? 0,
    limit_reached: c.limit_reached,
    period_start: c.limit_start,
    period_end: c.limit_end,
    active: limitActive(c, now),
  };
}

import type { Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Deps } from '../../../deps.ts';
import { isUnrestricted, isOpen, nextOpening } from '../../contact-lifecycle/calling-window.ts';
import { windowRuleFor } from '../../contact-lifecycle/contact-window.ts';
import type { ContactStep } from '../../contact-lifecycle/contact-lifecycle.repository.ts';
import { NO_WINDOW, type NextAction } from '../../contact-lifecycle/next-action.ts';
import { isReachableCampaign } from '../../contact-lifecycle/reachable-campaign.ts';
import { complianceOf, quietBounds, type ComplianceSettings } from '../../compliance/compliance-settings.ts';
import { claimDueContacts, type ClaimedContact } from './due-contacts-claim.ts';
import { lockCampaigns, type DialCampaign } from './concurrency-locks.ts';
import { paceByRoute, routeOf, type Chosen } from './call-routes.ts';
import { providerFor } from '../../../voice/registry.ts';
import { contactsCalledInPeriod, limitActive, periodCostPerCall, periodUsage } from '../../contact-lifecycle/usage-limit.ts';
import { capVerdicts, suppressedReason, suppressionsOf } from '../../contact-lifecycle/reach-law.ts';
import { callsFromToday, chooseCallerId, type CallerId } from './caller-id.ts';
import { restedNumbersOf } from '../../phone-numbers/number-health.repository.ts';
import { accountBusyReason, lockAccountCapacity, outboundRoom, type AccountCapacity } from '../account-capacity.ts';

/**
 * A dialling round's decisions, taken in its transaction and written by round-writer.ts. Each
 * step decides for the contacts the steps before it kept: the claim, the campaign's state, the
 * law (do-not-call list), the calling window (schedule, contact's zones, quiet hours), usage and
 * concurrency limits, the frequency caps, the vendor routes' pacing, the caller id (daily caps,
 * number health's rests). A contact a
 * step holds back gets its next step (`moves`, or `deferrals` when its status stays).
 *
 * Lock order (docs/dialer.md): the caller holds the service-wide cap lock if any; the claim locks
 * the contacts (SKIP LOCKED), then the campaign locks, the capped accounts' locks (waited, in owner
 * order: account-capacity.ts), the number locks of the caps, the vendor route rows. Reads need no
 * other lock.
 */

type Trx = Transaction<Database>;

/** A campaign whose every number is at its daily cap looks again this much later. */
const CALLER_ID_CAP_RETRY_MS = 3_600_000;

export interface RoundPlan {
  claimed: number;
  /** Claimed contacts left due because another worker held their campaign's lock. */
  busy: number;
  /** The contacts to call now, with their caller id. */
  chosen: (Chosen & { callerId: CallerId })[];
  moves: ContactStep[];
  deferrals: { id: number; at: Date; next: NextAction }[];
  /** The calls' start_time, taken after the locks (a call never starts before the end of the call whose slot it took). */
  startAt: Date;
}

export async function planRound(trx: Trx, deps: Deps, input: { now: Date; limit: number; globalRoom: number; routeRooms: Map<string, number> }): Promise<RoundPlan | null> {
  const claimed = await claimDueContacts(trx, { now: input.now, limit: input.limit, routeRooms: input.routeRooms, defaultProvider: deps.config.VOICE_PROVIDER });
  if (claimed.length === 0) return null;
  const campaigns = await lockCampaigns(trx, claimed.map((c) => c.campaign_id));
  // Counted under their locks before the round's time is taken: a call never starts (start_time)
  // before the end of a call whose place in the account's cap it takes.
  const capacity = await lockAccountCapacity(trx, claimed.filter((c) => campaigns.has(c.campaign_id)).map((c) => c.owner_id));
  const startAt = deps.clock.now();
  const moves: ContactStep[] = [];
  const owners = [...new Set(claimed.map((c) => c.owner_id))];
  // The law first: the do-not-call list and the account's quiet hours and caps bind every campaign.
  const [compliance, suppressed] = await Promise.all([
    complianceOf(trx, owners),
    suppressionsOf(trx, claimed.map((c) => ({ ownerId: c.owner_id, phone: c.phone_number })), startAt),
  ]);
  let busy = 0;
  const open: ClaimedContact[] = [];
  for (const contact of claimed) {
    const campaign = campaigns.get(contact.campaign_id);
    // Another worker is dialling this campaign: its contacts stay due for the next round.
    if (!campaign) {
      busy++;
      continue;
    }
    // Paused, archived or limited since the claim: left for the sweep.
    if (!isReachableCampaign(campaign)) continue;
    const suppression = suppressed.get(`${contact.owner_id}|${contact.phone_number}`);
    if (suppression) moves.push({ id: contact.id, status: 'do_not_disturb', at: null, next: { code: 'suppressed', reason: suppressedReason(suppression) } });
    else open.push(contact);
  }
  const inWindow = await windowStep(open, campaigns, compliance, startAt, moves);
  let chosen = await limitStep(trx, deps.config.VOICE_PROVIDER, inWindow, campaigns, input.globalRoom, startAt);
  chosen = await capStep(trx, chosen, compliance, startAt, moves);
  const held: RoundPlan['deferrals'] = [];
  chosen = accountStep(chosen, capacity, held);
  const paced = await paceByRoute(trx, deps, chosen, startAt);
  const used = await callsFromToday(trx, [...campaigns.values()], startAt);
  // Number health's rests, written by any process's worker: one read per round, only for campaigns with numbers.
  const rested = await restedNumbersOf(trx, [...new Set(paced.kept.filter((c) => (c.campaign.phones ?? []).length > 0).map((c) => c.campaign.id))], startAt);
  const withCallerId: RoundPlan['chosen'] = [];
  for (const c of paced.kept) {
    const callerId = chooseCallerId(c.campaign, c.contact, used, rested.get(c.campaign.id));
    // A campaign without a number calls from its route's own (recorded on the call, as the vendor will use it).
    if (callerId && callerId.number === null) {
      const routeFrom = (await providerFor(deps, c.route)).defaultFrom ?? null;
      if (routeFrom) Object.assign(callerId, { number: routeFrom, reason: 'no campaign number: the route\'s own number' });
    }
    if (callerId) withCallerId.push({ ...c, callerId });
    else moves.push({ id: c.contact.id, status: 'call_scheduled', at: new Date(startAt.getTime() + CALLER_ID_CAP_RETRY_MS), next: { code: 'caller_id_cap', reason: 'every number of the campaign reached its daily cap' } });
  }
  return { claimed: claimed.length, busy, chosen: withCallerId, moves, deferrals: [...held, ...paced.deferred], startAt };
}

/** Keeps the contacts whose calling window is open at `at`; the others wait for its next opening. */
async function windowStep(contacts: ClaimedContact[], campaigns: Map<number, DialCampaign>, compliance: Map<number, ComplianceSettings>, at: Date, moves: ContactStep[]) {
  const kept: ClaimedContact[] = [];
  // A window depends on the campaign and the contact's zones only: the contacts of a campaign
  // share a few zone sets, and this runs under the campaign locks.
  const verdicts = new Map<string, { open: boolean; at: Date | null }>();
  for (const contact of contacts) {
    const campaign = campaigns.get(contact.campaign_id)!;
    const rule = await windowRuleFor(campaign, contact, quietBounds(compliance.get(contact.owner_id)!));
    const key = `${campaign.id}|${rule.zones.join(',')}`;
    let verdict = verdicts.get(key);
    if (!verdict) {
      const isOpenNow = isUnrestricted(rule) || isOpen(rule, at);
      verdict = { open: isOpenNow, at: isOpenNow ? at : nextOpening(rule, at) };
      verdicts.set(key, verdict);
    }
    if (verdict.open) kept.push(contact);
    else if (verdict.at) moves.push({ id: contact.id, status: 'call_scheduled', at: verdict.at, next: { code: 'outside_window', reason: `outside calling window; next opening ${verdict.at.toISOString()}` } });
    else moves.push({ id: contact.id, status: 'awaiting_queue', at: null, next: NO_WINDOW });
  }
  return kept;
}

/** Each campaign's usage limit and free concurrent slots, and the service-wide room. */
async function limitStep(trx: Trx, defaultProvider: string, contacts: ClaimedContact[], campaigns: Map<number, DialCampaign>, globalRoom: number, at: Date): Promise<Chosen[]> {
  const byCampaign = new Map<number, ClaimedContact[]>();
  for (const c of contacts) byCampaign.set(c.campaign_id, [...(byCampaign.get(c.campaign_id) ?? []), c]);
  const chosen: Chosen[] = [];
  for (const [campaignId, group] of byCampaign) {
    const campaign = campaigns.get(campaignId)!;
    let free = (campaign.concurrent_call_limit ?? 0) > 0 ? campaign.concurrent_call_limit! - campaign.live : Infinity;
    const take = limitActive(campaign, at) ? await withinUsageLimit(trx, campaign, group) : group;
    for (const contact of take) {
      if (free <= 0 || globalRoom <= 0) break;
      chosen.push({ contact, campaign, route: routeOf(campaign, defaultProvider) });
      free--;
      globalRoom--;
    }
  }
  return chosen;
}

/** The account's frequency caps per number: a capped contact waits until another call is allowed. */
async function capStep(trx: Trx, chosen: Chosen[], compliance: Map<number, ComplianceSettings>, at: Date, moves: ContactStep[]): Promise<Chosen[]> {
  const caps = await capVerdicts(trx, chosen.map((c) => ({ ownerId: c.contact.owner_id, phone: c.contact.phone_number })), compliance, at);
  return chosen.filter(({ contact }) => {
    const allowedAt = caps.get(`${contact.owner_id}|${contact.phone_number}`);
    if (allowedAt) {
      const s = compliance.get(contact.owner_id)!;
      const reason = `frequency cap (${s.maxPerDay} calls per 24 hours, ${s.maxPerWeek} per 7 days to this number across the account's campaigns); next allowed ${allowedAt.toISOString()}`;
      moves.push({ id: contact.id, status: 'call_scheduled', at: allowedAt, next: { code: 'frequency_cap', reason } });
    }
    return !allowedAt;
  });
}

/**
 * The accounts' caps on calls in progress, the reserve for inbound kept (account-capacity.ts): with
 * the counts taken under each capped account's lock (held to commit), keeps as many contacts as it has outbound room; the others stay due
 * as they were (their time unchanged), with the reason. Last before the vendor routes, so a contact
 * another step holds back takes no room.
 */
function accountStep(chosen: Chosen[], capacity: Map<number, AccountCapacity>, held: RoundPlan['deferrals']): Chosen[] {
  if (capacity.size === 0) return chosen;
  const room = new Map([...capacity].map(([owner, c]) => [owner, outboundRoom(c)]));
  return chosen.filter(({ contact }) => {
    const left = room.get(contact.owner_id);
    if (left === undefined) return true;
    room.set(contact.owner_id, left - 1);
    if (left > 0) return true;
    held.push({ id: contact.id, at: contact.next_action_time, next: { code: 'account_concurrency', reason: accountBusyReason(capacity.get(contact.owner_id)!) } });
    return false;
  });
}

/** Applies the usage limit: how many of these contacts may be called now. */
async function withinUsageLimit(trx: Trx, campaign: DialCampaign, contacts: ClaimedContact[]): Promise<ClaimedContact[]> {
  const limit = campaign.limit_value!;
  const usage = await periodUsage(trx, campaign);
  if (campaign.limit_unit === 'contacts') {
    // A contact already called in the period does not count again.
    const counted = await contactsCalledInPeriod(trx, campaign, contacts.map((c) => c.id));
    let room = limit - usage;
    return contacts.filter((c) => counted.has(c.id) || room-- >= 1);
  }
  if (campaign.limit_unit === 'minutes') {
    // Every call in progress will bill at least one minute, so it is reserved now.
    const room = Math.ceil(limit - usage - campaign.live);
    return contacts.slice(0, Math.max(0, room));
  }
  // Cost: a call's cost is known only when it ends, so each call in progress reserves the
  // campaign's average paid call in the period; before the first one ends, one call at a
  // time. Without a reserve, one round could start every due call before the first cost is known.
  if (usage >= limit) return [];
  const perCall = await periodCostPerCall(trx, campaign);
  if (perCall === null) return contacts.slice(0, Math.max(0, 1 - campaign.live));
  const room = Math.ceil((limit - usage) / perCall) - campaign.live;
  return contacts.slice(0, Math.max(0, room));
}

import type { Deps } from '../../../deps.ts';
import { isUnrestricted, isOpen, nextOpening } from './calling-window.ts';
import { windowRuleFor } from './contact-window.ts';
import { claimDueContacts, type ClaimedContact } from './due-contacts-claim.ts';
import { lockCampaigns, lockGlobalRoom, type DialCampaign } from './concurrency-locks.ts';
import { deferContacts, insertCalls, markContactsCalling, rescheduleContacts, type NewOutboundCall } from './call-rows.ts';
import { estimateRouteRooms } from './vendor-pacing.ts';
import { paceByRoute, pacedRoutes, routeOf, type Chosen } from './call-routes.ts';
import { startCalls, type StartingCall } from './start-calls.ts';
import { contactsCalledInPeriod, limitActive, periodCostPerCall, periodUsage } from './usage.ts';
import { NO_WINDOW_REASON } from '../reasons.ts';
import { complianceOf, quietBounds } from '../../compliance/compliance-settings.ts';
import { capVerdicts, suppressedReason, suppressionsOf } from './compliance-checks.ts';
import { callsFromToday, chooseCallerId, type CallerId } from './caller-id.ts';

const NUMBER_BUSY_RETRY_MS = 60_000;
/** A campaign whose every number is at its daily cap looks again this much later. */
const CALLER_ID_CAP_RETRY_MS = 3_600_000;

export interface DialResult {
  claimed: number;
  /** Claimed contacts left for later because another worker held their campaign's lock. */
  busy: number;
  started: number;
  callIds: number[];
}

/**
 * One dialling round: claim due contacts, decide under the campaign locks which may be
 * called now, write the calls and the contacts' `in progress` in the same transaction,
 * and only after commit ask the provider to dial (our call id is its idempotency key).
 */
export async function dialDueContacts({ deps, batchSize = 200, startInBackground }: {
  deps: Deps;
  batchSize?: number;
  /**
   * Takes the vendor requests of the round instead of waiting for them (the dialer loop): the next
   * round claims while they are in flight, so one slow vendor does not hold back every other route.
   * The promise never rejects (a failure is logged; the reconciler settles its calls).
   */
  startInBackground?: (starting: Promise<void>) => void;
}): Promise<DialResult> {
  const now = deps.clock.now();
  const routes = await pacedRoutes(deps);
  const prepared = await deps.db.transaction().execute(async (trx) => {
    let globalRoom = Infinity;
    if (deps.config.MAX_CONCURRENT_CALLS > 0) {
      globalRoom = await lockGlobalRoom(trx, deps.config.MAX_CONCURRENT_CALLS);
      if (globalRoom <= 0) return { claimed: 0, busy: 0, calls: [] as StartingCall[] };
    }
    const routeRooms = await estimateRouteRooms(trx, deps, routes.pacing, now);
    // Every route in use is paced: the vendors will take no more than their rooms together.
    const vendorRoom = routes.allPaced ? [...routeRooms.values()].reduce((a, b) => a + b, 0) : Infinity;
    const limit = Math.min(batchSize, globalRoom, vendorRoom);
    if (limit <= 0) return { claimed: 0, busy: 0, calls: [] as StartingCall[] };
    const claimed = await claimDueContacts(trx, { now, limit, routeRooms, defaultProvider: deps.config.VOICE_PROVIDER });
    if (claimed.length === 0) return { claimed: 0, busy: 0, calls: [] };
    const campaigns = await lockCampaigns(trx, claimed.map((c) => c.campaign_id));
    // The call's start_time, taken after the locks (a call never starts before the end of
    // the call whose slot it took) and used for the window check, so both agree exactly.
    const startAt = deps.clock.now();

    const later: { id: number; at: Date | null; reason: string; status: string }[] = [];
    // The law first: the do-not-call list and the account's quiet hours and caps bind every campaign.
    const owners = [...new Set(claimed.map((c) => c.owner_id))];
    const [compliance, suppressed] = await Promise.all([
      complianceOf(trx, owners),
      suppressionsOf(trx, claimed.map((c) => ({ ownerId: c.owner_id, phone: c.phone_number })), startAt),
    ]);
    const byCampaign = new Map<number, ClaimedContact[]>();
    let busy = 0;
    const verdicts = new Map<string, { open: boolean; at: Date | null }>();
    for (const contact of claimed) {
      const campaign = campaigns.get(contact.campaign_id);
      // Another worker is dialling this campaign: its contacts stay due for the next round.
      if (!campaign) {
        busy++;
        continue;
      }
      // Paused, archived or limited since the claim: leave the contact for the sweep.
      if (campaign.is_paused || campaign.is_archive || campaign.limit_reached) continue;
      const suppression = suppressed.get(`${contact.owner_id}|${contact.phone_number}`);
      if (suppression) {
        later.push({ id: contact.id, at: null, reason: suppressedReason(suppression), status: 'do_not_disturb' });
        continue;
      }
      const rule = await windowRuleFor(campaign, contact, quietBounds(compliance.get(contact.owner_id)!));
      // A window depends on the campaign and the contact's zones only: the contacts of a
      // campaign share a few zone sets, and this runs under the campaign locks.
      const key = `${campaign.id}|${rule.zones.join(',')}`;
      let verdict = verdicts.get(key);
      if (!verdict) {
        const open = isUnrestricted(rule) || isOpen(rule, startAt);
        verdict = { open, at: open ? startAt : nextOpening(rule, startAt) };
        verdicts.set(key, verdict);
      }
      if (!verdict.open) {
        const at = verdict.at;
        later.push(at
          ? { id: contact.id, at, reason: `outside calling window; next opening ${at.toISOString()}`, status: 'call_scheduled' }
          : { id: contact.id, at: null, reason: NO_WINDOW_REASON, status: 'awaiting_queue' });
        continue;
      }
      byCampaign.set(campaign.id, [...(byCampaign.get(campaign.id) ?? []), contact]);
    }

    let chosen: Chosen[] = [];
    for (const [campaignId, contacts] of byCampaign) {
      const campaign = campaigns.get(campaignId)!;
      let free = (campaign.concurrent_call_limit ?? 0) > 0 ? campaign.concurrent_call_limit! - campaign.live : Infinity;
      let take = contacts;
      if (limitActive(campaign, startAt)) take = await withinUsageLimit(trx, campaign, contacts);
      for (const contact of take) {
        if (free <= 0 || globalRoom <= 0) break;
        chosen.push({ contact, campaign, route: routeOf(campaign, deps.config.VOICE_PROVIDER) });
        free--;
        globalRoom--;
      }
    }

    const caps = await capVerdicts(trx, chosen.map((c) => ({ ownerId: c.contact.owner_id, phone: c.contact.phone_number })), compliance, startAt);
    chosen = chosen.filter(({ contact }) => {
      const allowedAt = caps.get(`${contact.owner_id}|${contact.phone_number}`);
      if (allowedAt) {
        const s = compliance.get(contact.owner_id)!;
        later.push({ id: contact.id, at: allowedAt, reason: `frequency cap (${s.maxPerDay} calls per 24 hours, ${s.maxPerWeek} per 7 days to this number across the account's campaigns); next allowed ${allowedAt.toISOString()}`, status: 'call_scheduled' });
      }
      return !allowedAt;
    });
    const paced = await paceByRoute(trx, deps, chosen, startAt);
    await deferContacts(trx, paced.deferred);
    const used = await callsFromToday(trx, [...campaigns.values()], startAt);
    const callerIds = new Map<number, CallerId>();
    chosen = paced.kept.filter(({ contact, campaign }) => {
      const choice = chooseCallerId(campaign, contact, used);
      if (choice) callerIds.set(contact.id, choice);
      else later.push({ id: contact.id, at: new Date(startAt.getTime() + CALLER_ID_CAP_RETRY_MS), reason: "every number of the campaign reached its daily cap", status: 'call_scheduled' });
      return choice !== null;
    });
    const rows: NewOutboundCall[] = chosen.map(({ contact, campaign, route }) => ({
      contactId: contact.id,
      ownerId: contact.owner_id,
      campaignId: campaign.id,
      from: callerIds.get(contact.id)!.number,
      to: contact.phone_number,
      title: campaign.title,
      contactData: JSON.stringify(contact.contact_data ?? {}),
      callData: JSON.stringify({ provider: route.provider, ...(campaign.assistant_id !== null && { assistant_id: campaign.assistant_id }), caller_id: callerIds.get(contact.id), transcript: [] }),
      provider: route.provider,
      connectionId: route.connectionId,
    }));
    const inserted = await insertCalls(trx, rows, startAt);
    await markContactsCalling(trx, inserted.map((r) => r.contact_id));
    const insertedContacts = new Set(inserted.map((r) => r.contact_id));
    for (const { contact } of chosen) {
      if (!insertedContacts.has(contact.id)) {
        later.push({ id: contact.id, at: new Date(startAt.getTime() + NUMBER_BUSY_RETRY_MS), reason: 'another call to this number is in progress', status: 'call_scheduled' });
      }
    }
    await rescheduleContacts(trx, later);
    const byContact = new Map(chosen.map((c) => [c.contact.id, c]));
    const calls: StartingCall[] = inserted.map((r) => {
      const c = byContact.get(r.contact_id)!;
      return { id: r.id, ...c, from: callerIds.get(r.contact_id)!.number };
    });
    return { claimed: claimed.length, busy, calls };
  });

  if (prepared.calls.length > 0) {
    const starting = startCalls(deps, prepared.calls);
    if (startInBackground) startInBackground(starting.catch((error) => deps.log.error({ err: error }, 'dialer: starting calls failed (the reconciler settles them)')));
    else await starting;
  }
  return { claimed: prepared.claimed, busy: prepared.busy, started: prepared.calls.length, callIds: prepared.calls.map((c) => c.id) };
}

/** Applies the usage limit: how many of these contacts may be called now. */
async function withinUsageLimit(trx: Parameters<typeof periodUsage>[0], campaign: DialCampaign, contacts: ClaimedContact[]): Promise<ClaimedContact[]> {
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

import type { Db } from '../../db/connection.ts';
import type { Principal } from '../auth/principal.ts';
import { campaignVisibleTo, requireCampaign } from '../campaigns/campaign-access.ts';
import { latestEventId, oldestEventId, readOwnerEventsAfter, readTurns, type LiveEvent } from './live-events.repository.ts';

/**
 * Who sees which live event: the account's own, and a sub-user only those of the campaigns
 * granted to it (the same rule as every list: campaign-access.ts). A grant given or taken
 * while a stream is open counts from the next refresh (GRANTS_REFRESH_MS), as a list would.
 */
export const GRANTS_REFRESH_MS = 15_000;

export interface StreamScope {
  ownerId: number;
  campaignId: number | null;
  /** The campaigns a sub-user may see; null for the account itself. */
  granted: Set<number> | null;
}

export async function streamScope(db: Db, principal: Principal, campaignId: number | null): Promise<StreamScope> {
  if (campaignId !== null) await requireCampaign(db, principal, campaignId);
  return { ownerId: principal.ownerId, campaignId, granted: await grantedCampaigns(db, principal) };
}

export async function grantedCampaigns(db: Db, principal: Principal): Promise<Set<number> | null> {
  if (principal.kind === 'user') return null;
  const rows = await db.selectFrom('campaign_sub_users').select('campaign_id').where('sub_user_id', '=', principal.subUserId).execute();
  return new Set(rows.map((r) => Number(r.campaign_id)));
}

export function inScope(scope: StreamScope, event: LiveEvent): boolean {
  if (event.ownerId !== scope.ownerId) return false;
  if (scope.campaignId !== null && event.campaignId !== scope.campaignId) return false;
  if (scope.granted === null) return true;
  return event.campaignId !== null && scope.granted.has(event.campaignId);
}

const REPLAY_LIMIT = 5000;

/**
 * What a resuming browser missed since `lastId`, in scope; `resync` when events it missed are
 * no longer kept (or more than a replay holds): it must reload the state, then follow again.
 */
export async function replaySince(db: Db, scope: StreamScope, lastId: string): Promise<{ events: LiveEvent[]; resync: boolean }> {
  const oldest = await oldestEventId(db);
  const events = await readOwnerEventsAfter(db, scope.ownerId, lastId, REPLAY_LIMIT);
  const missedPruned = oldest !== null && BigInt(oldest) > BigInt(lastId) + 1n && BigInt(lastId) < BigInt(await latestEventId(db));
  return { events: events.filter((e) => inScope(scope, e)), resync: missedPruned || events.length === REPLAY_LIMIT };
}

export interface LiveCall {
  id: number;
  campaign_id: number;
  campaign_title: string | null;
  contact_id: number;
  contact_name: string | null;
  phone_number: string;
  direction: string;
  start_time: Date | null;
  answered: boolean;
  transcript: { role: string; text: string }[];
}

const LIVE_CALLS_LIMIT = 500;

/**
 * The calls in progress the principal may see (newest first, up to 500), each with what its
 * transcript said so far, and the id to follow the stream from without a gap.
 */
export async function liveCalls(db: Db, principal: Principal, campaignId: number | null): Promise<{ last_event_id: string; calls: LiveCall[] }> {
  if (campaignId !== null) await requireCampaign(db, principal, campaignId);
  // The id first: the turns up to it are here, those after it come on the stream (a call that
  // starts meanwhile is listed here and its call.started follows on the stream: match by call id).
  const lastEventId = await latestEventId(db);
  let query = db.selectFrom('calls')
    .select(['id', 'campaign_id', 'campaign_title', 'contact_id', 'call_type', 'to_number', 'from_number', 'start_time', 'contact_data'])
    .where('status', '=', 'in progress')
    .where(campaignVisibleTo(principal, 'calls.campaign_id', 'calls.owner_id'));
  if (campaignId !== null) query = query.where('campaign_id', '=', campaignId);
  const rows = await query.orderBy('id', 'desc').limit(LIVE_CALLS_LIMIT).execute();
  const turns = await readTurns(db, rows.map((r) => Number(r.id)), lastEventId);
  const byCall = new Map<number, LiveEvent[]>();
  for (const t of turns) byCall.set(t.callId!, [...(byCall.get(t.callId!) ?? []), t]);
  return {
    last_event_id: lastEventId,
    calls: rows.map((r) => {
      const events = byCall.get(Number(r.id)) ?? [];
      const data = (r.contact_data ?? {}) as Record<string, unknown>;
      return {
        id: Number(r.id), campaign_id: Number(r.campaign_id), campaign_title: r.campaign_title, contact_id: Number(r.contact_id),
        contact_name: typeof data.name === 'string' ? data.name : null,
        phone_number: (r.call_type === 'inbound' ? r.from_number : r.to_number) ?? '',
        direction: r.call_type ?? 'outbound', start_time: r.start_time,
        answered: events.some((e) => e.type === 'call.answered' || e.type === 'call.turn'),
        transcript: events.filter((e) => e.type === 'call.turn').map((e) => ({ role: String(e.data.role), text: String(e.data.text) })),
      };
    }),
  };
}

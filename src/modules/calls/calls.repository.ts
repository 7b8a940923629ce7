import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { Principal } from '../auth/principal.ts';
import { campaignVisibleTo } from '../campaigns/campaign-access.ts';
import { pageWithCampaignTitle } from '../campaigns/titled-page.ts';
import type { CallView } from './calls.schemas.ts';
import { callDataMatches, type CallDataSearch } from './calls.search.ts';

/** Filters of the calls list; every one narrows, none widens past campaignVisibleTo. */
export interface CallFilters {
  toNumber?: string | undefined;
  fromNumber?: string | undefined;
  statuses?: string[] | undefined;
  actionStatuses?: string[] | undefined;
  startFrom?: string | undefined;
  startTo?: string | undefined;
  endFrom?: string | undefined;
  endTo?: string | undefined;
  durationFrom?: number | undefined;
  durationTo?: number | undefined;
  costFrom?: number | undefined;
  costTo?: number | undefined;
  campaignIds?: number[] | undefined;
  contactId?: number | undefined;
  callId?: number | undefined;
  callType?: string | undefined;
  /** The call_data text with its words (prepareCallDataSearch). */
  callData?: CallDataSearch | undefined;
  /** Call scores (modules/quality/scorecards): only scored calls, within the range, with the tag. */
  scoreMin?: number | undefined;
  scoreMax?: number | undefined;
  scoreTag?: string | undefined;
}

export type CallRecord = CallView & { id: number; campaign_id: number; owner_id: number };

const callColumns = [
  'calls.id',
  'calls.owner_id',
  'calls.campaign_id',
  'calls.contact_id',
  'calls.status',
  'calls.is_archive',
  'calls.action_status',
  'calls.action_status_reason',
  'calls.from_number',
  'calls.to_number',
  'calls.start_time',
  'calls.end_time',
  'calls.cost',
  'calls.call_duration',
  'calls.record_url',
  'calls.call_data',
  'calls.contact_data',
  'calls.call_type',
  'calls.call_ended_by',
  'calls.call_ended_by_reason',
] as const;

/**
 * The provider's call id: on the call row once the call has ended, and in
 * call_provider_refs while it is in progress (migration 0007 says why).
 */
const externalSessionId = sql<string | null>`coalesce(calls.external_session_id, (SELECT r.provider_call_id FROM call_provider_refs r WHERE r.call_id = calls.id))`.as('external_session_id');

/** The one WHERE clause shared by the page query and the count query. */
export function matchingCalls(db: Db, principal: Principal, f: CallFilters) {
  let q = db.selectFrom('calls').where(campaignVisibleTo(principal, 'calls.campaign_id', 'calls.owner_id'));
  if (f.toNumber !== undefined) q = q.where('calls.to_number', '=', f.toNumber);
  if (f.fromNumber !== undefined) q = q.where('calls.from_number', '=', f.fromNumber);
  if (f.statuses && f.statuses.length > 0) q = q.where('calls.status', 'in', f.statuses);
  if (f.actionStatuses && f.actionStatuses.length > 0) q = q.where('calls.action_status', 'in', f.actionStatuses);
  if (f.startFrom !== undefined) q = q.where('calls.start_time', '>=', new Date(f.startFrom));
  if (f.startTo !== undefined) q = q.where('calls.start_time', '<=', new Date(f.startTo));
  if (f.endFrom !== undefined) q = q.where('calls.end_time', '>=', new Date(f.endFrom));
  if (f.endTo !== undefined) q = q.where('calls.end_time', '<=', new Date(f.endTo));
  if (f.durationFrom !== undefined) q = q.where('calls.call_duration', '>=', f.durationFrom);
  if (f.durationTo !== undefined) q = q.where('calls.call_duration', '<=', f.durationTo);
  if (f.costFrom !== undefined) q = q.where('calls.cost', '>=', f.costFrom);
  if (f.costTo !== undefined) q = q.where('calls.cost', '<=', f.costTo);
  if (f.campaignIds && f.campaignIds.length > 0) q = q.where('calls.campaign_id', 'in', f.campaignIds);
  if (f.contactId !== undefined) q = q.where('calls.contact_id', '=', f.contactId);
  if (f.callId !== undefined) q = q.where('calls.id', '=', f.callId);
  if (f.callType !== undefined) q = q.where('calls.call_type', '=', f.callType);
  if (f.callData !== undefined) q = q.where(callDataMatches(f.callData));
  if (f.scoreMin !== undefined || f.scoreMax !== undefined || f.scoreTag !== undefined) q = q.where(scoreMatches(principal.ownerId, f));
  return q;
}

/**
 * One page, newest first: the calls below afterId (keyset: the index walk starts there, so a
 * deep page costs what the first does), then skip. The skip walks ids only (the filter's
 * columns, never the wide call data), then the page's calls are read by id and joined to
 * their campaign titles.
 *
 * fewMatches (the bounded count found at most EXACT_COUNT_UP_TO, or an estimate small enough
 * that sorting the matches beats walking to them: calls.service.ts): the matches are collected
 * first and then sorted. Without it the planner may walk the id index from the newest call
 * and test each one, which reads every call when a search word is rare (its estimate of a
 * word prefix is 0.5% of the calls): OFFSET 0 keeps the filter planned on its own.
 */
export function callsPage(
  db: Db,
  args: { principal: Principal; filters: CallFilters; afterId?: number | undefined; skip: number; limit: number; fewMatches: boolean },
) {
  const matching = (filters: CallFilters) => {
    const ids = matchingCalls(db, args.principal, filters);
    return args.afterId !== undefined ? ids.where('calls.id', '<', args.afterId) : ids;
  };
  const statuses = args.filters.statuses ?? [];
  const pageIds = args.fewMatches
    ? db.selectFrom(matching(args.filters).select('calls.id').offset(0).as('m')).select('m.id').orderBy('m.id', 'desc').limit(args.limit).offset(args.skip)
    : statuses.length > 1 && args.skip + args.limit <= MERGED_STATUS_WALK
      ? mergedStatusWalks(db, statuses.map((status) => matching({ ...args.filters, statuses: [status] })), args.skip, args.limit)
      : matching(args.filters).select('calls.id').orderBy('calls.id', 'desc').limit(args.limit).offset(args.skip);
  return pageWithCampaignTitle<CallRecord>(db, db.selectFrom('calls').select(callColumns).select(externalSessionId).where('calls.id', 'in', pageIds));
}

/** Past this many rows a page of several statuses walks the id order once, as before (each walk would hand out that many). */
const MERGED_STATUS_WALK = 10_000;

/**
 * Several statuses: one walk per status, newest first, on calls_owner_status_idx (migration 0033),
 * each stopping at skip + limit, merged by id. The planner cannot order `status IN (...)` by id from
 * that index, and walking the id order instead reads every call newer than the matches.
 */
function mergedStatusWalks(db: Db, walks: ReturnType<typeof matchingCalls>[], skip: number, limit: number) {
  const branches = walks.map((w) => sql`(${w.select('calls.id').orderBy('calls.id', 'desc').limit(skip + limit)})`);
  const merged = sql<{ id: number }>`(${sql.join(branches, sql` UNION ALL `)})`;
  return db.selectFrom(merged.as('m')).select('m.id').orderBy('m.id', 'desc').limit(limit).offset(skip);
}

/** One call with its campaign's title, whoever owns it (the caller checks access). */
export function findCall(db: Db, id: number) {
  return db
    .selectFrom('calls')
    .innerJoin('campaigns as camp', 'camp.id', 'calls.campaign_id')
    .select(callColumns)
    .select(externalSessionId)
    .select('camp.title as campaign_title')
    .where('calls.id', '=', id)
    .$castTo<CallRecord>()
    .executeTakeFirst();
}

/**
 * The score filters as one EXISTS on call_scores by its primary key (call_id), restricted to the
 * owner's scored rows so the planner may also drive the list from call_scores_owner_score_idx
 * (or call_scores_campaign_score_idx with a campaign filter).
 */
function scoreMatches(ownerId: number, f: CallFilters) {
  // The campaigns repeated on call_scores let the planner read a campaign's score range by index and fetch those calls by id.
  const campaigns = f.campaignIds && f.campaignIds.length > 0 ? sql`AND cs.campaign_id IN (${sql.join(f.campaignIds)})` : sql``;
  return sql<boolean>`EXISTS (SELECT 1 FROM call_scores cs WHERE cs.call_id = calls.id AND cs.owner_id = ${ownerId} AND cs.status = 'scored' ${campaigns}
    ${f.scoreMin !== undefined ? sql`AND cs.score >= ${f.scoreMin}` : sql``}
    ${f.scoreMax !== undefined ? sql`AND cs.score <= ${f.scoreMax}` : sql``}
    ${f.scoreTag !== undefined ? sql`AND ${f.scoreTag} = ANY(cs.tags)` : sql``})`;
}

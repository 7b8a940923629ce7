import type { Db } from '../../db/connection.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { phoneFilter } from '../../shared/phone.ts';
import type { Principal } from '../auth/principal.ts';
import { canAccessCampaign } from '../campaigns/campaign-access.ts';
import { withStatementTimeout } from '../../db/bounded-list.ts';
import { countCalls, visibleCalls } from './calls.count.ts';
import { callsPage, findCall, type CallFilters, type CallRecord } from './calls.repository.ts';
import type { CallsQuery } from './calls.schemas.ts';
import { prepareCallDataSearch } from './calls.search.ts';

/** Web forms send empty fields; an empty text filter filters nothing. */
const text = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

/** The query's filters that narrow the list (for the 503 of a stopped query), by their API names. */
const usedFilters = (q: CallsQuery) =>
  Object.entries(q)
    .filter(([key, value]) => !['skip', 'limit', 'after_id'].includes(key) && value !== undefined && value !== '')
    .map(([key]) => key);

/**
 * Whether reading the matches and sorting them costs less than walking the newest calls until
 * `wanted` match: the walk reads about wanted x total / matches calls, the sort reads the matches.
 * A day in March at 2M calls (5,500 matches, far from the newest ids) took 1.35 s walking.
 */
export const fewerThanTheWalk = (matches: number, wanted: number, total: number) => matches * matches <= wanted * total;

/**
 * A time range's matches are not spread over the calls, they are one run of them (ids follow
 * start times), and the walk reads every call newer than the run: a day in March at 10M calls
 * (27,000 matches) was read by walking and stopped at the statement timeout, as fewerThanTheWalk
 * assumes spread matches. Up to this many, a time range's matches are read from the start-time
 * index and sorted (27,000: tens of ms) wherever they lie.
 */
export const SORT_A_TIME_RANGE_UP_TO = 200_000;

/** Whether the matches are read and sorted whatever their number against the walk's (fewerThanTheWalk decides the rest). */
export const sortsTheMatches = (counted: { count: number; exact: boolean }, inATimeRange: boolean) =>
  counted.exact || (inATimeRange && counted.count <= SORT_A_TIME_RANGE_UP_TO);

/** The calls list with the API's pagination object; every query under the API's statement timeout. */
export async function listCallsPage(args: { db: Db; principal: Principal; query: CallsQuery; defaultCountry: string; statementTimeoutMs: number }) {
  const q = args.query;
  const where = { timeoutMs: args.statementTimeoutMs, list: 'calls', filters: usedFilters(q) };
  const { data, count, exact } = await withStatementTimeout(args.db, where, async (db) => {
    const callData = text(q.call_data);
    const filters: CallFilters = {
      toNumber: phoneFilter(text(q.phone_number), args.defaultCountry),
      fromNumber: phoneFilter(text(q.from_number), args.defaultCountry),
      statuses: q.status,
      actionStatuses: q.action_status,
      startFrom: q.start_time_from,
      startTo: q.start_time_to,
      endFrom: q.end_time_from,
      endTo: q.end_time_to,
      durationFrom: q.duration_from,
      durationTo: q.duration_to,
      costFrom: q.cost_from,
      costTo: q.cost_to,
      campaignIds: q.campaign_id,
      contactId: q.contact_id,
      callId: q.call_id,
      callType: text(q.call_type),
      callData: callData === undefined ? undefined : await prepareCallDataSearch(db, callData),
      scoreMin: q.score_min,
      scoreMax: q.score_max,
      scoreTag: q.score_tag,
    };
    // The count first: it tells the page how to read (callsPage's fewMatches).
    const counted = await countCalls(db, args.principal, filters);
    const inATimeRange = [q.start_time_from, q.start_time_to, q.end_time_from, q.end_time_to].some((v) => v !== undefined);
    const fewMatches = counted.bounded && (sortsTheMatches(counted, inATimeRange) || fewerThanTheWalk(counted.count, q.skip + q.limit, await visibleCalls(db, args.principal)));
    const page = await callsPage(db, { principal: args.principal, filters, afterId: q.after_id, skip: q.skip, limit: q.limit, fewMatches });
    return { data: page, count: counted.count, exact: counted.exact };
  });
  return {
    data,
    count,
    count_exact: exact,
    pagination: { current_page: Math.floor(q.skip / q.limit) + 1, total_pages: Math.ceil(count / q.limit), total_count: count },
  };
}

/** A call the principal may see: 404 when unknown, 403 when its campaign is not theirs. */
export async function requireCall(db: Db, principal: Principal, id: number): Promise<CallRecord> {
  const call = await findCall(db, id);
  if (!call) throw notFound('Call');
  if (!(await canAccessCampaign(db, principal, { id: call.campaign_id, owner_id: call.owner_id }))) throw forbidden();
  return call;
}

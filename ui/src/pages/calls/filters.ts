import { ApiProblem } from '../../api/client';
import type { paths } from '../../api/schema';
import { instantAt, wallClockIn } from '../../format/time';

/**
 * The calls list's filters live in the URL query string under the API's own parameter names,
 * so a filtered view can be shared or reloaded and the URL maps one to one onto GET /api/v1/calls/.
 * Values are passed on as written: a bad one (say a duration of 1.5) is the API's 422, shown
 * next to its filter, rather than silently dropped here.
 */
export type CallsQuery = NonNullable<paths['/api/v1/calls/']['get']['parameters']['query']>;
export type CallItem = paths['/api/v1/calls/']['get']['responses'][200]['content']['application/json']['data'][number];

export const CALL_STATUSES: NonNullable<CallsQuery['status']> = ['new', 'in progress', 'finished', 'failed', 'busy_or_rejected', 'invalid number', 'insufficient funds', 'rejected', 'terminated', 'unavailable', 'voicemail', 'silence'];
export const ACTION_STATUSES: NonNullable<CallsQuery['action_status']> = ['transferred', 'scheduled', 'interested'];
export const CALL_TYPES = ['outbound', 'inbound'];
export const SCORE_TAGS: NonNullable<CallsQuery['score_tag']>[] = ['dead_air', 'talked_over', 'unanswered_question', 'frustrated'];
export const SCORE_TAG_LABELS: Record<string, string> = { dead_air: 'Dead air', talked_over: 'Talked over the person', unanswered_question: 'Did not answer a question', frustrated: 'Frustrated' };

/** Filters that take several values (repeated keys in the URL and in the API request). */
export const MULTI = ['campaign_id', 'status', 'action_status'] as const;
/** Filters that take one value. */
export const SINGLE = [
  'phone_number', 'from_number', 'contact_id', 'call_id', 'call_type', 'call_data',
  'start_time_from', 'start_time_to', 'end_time_from', 'end_time_to',
  'duration_from', 'duration_to', 'cost_from', 'cost_to',
  'score_min', 'score_max', 'score_tag',
] as const;
export type FilterKey = (typeof MULTI)[number] | (typeof SINGLE)[number];
export const FILTER_KEYS: FilterKey[] = [...MULTI, ...SINGLE];

export const PAGE_SIZE = 25;

/** The page number kept in the URL (1 when absent or not a positive integer). */
export function pageOf(params: URLSearchParams): number {
  const n = Number(params.get('page'));
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** The API query for the URL's filters and page: empty values are left out. */
export function apiQuery(params: URLSearchParams): Record<string, string | string[] | number> {
  const query: Record<string, string | string[] | number> = { skip: (pageOf(params) - 1) * PAGE_SIZE, limit: PAGE_SIZE };
  for (const key of MULTI) {
    const values = params.getAll(key).filter(Boolean);
    if (values.length) query[key] = values;
  }
  for (const key of SINGLE) {
    const value = params.get(key)?.trim();
    if (value) query[key] = value;
  }
  return query;
}

/** How many filters the URL sets (for the "Clear filters" button). */
export const activeFilters = (params: URLSearchParams) => FILTER_KEYS.filter((k) => params.getAll(k).some(Boolean)).length;

/** The API's 422 message for a query parameter, to show under that filter. */
export function queryError(error: unknown, key: string): string | undefined {
  if (!(error instanceof ApiProblem)) return undefined;
  const hits = error.fields.filter((f) => f.loc[0] === 'query' && f.loc[1] === key).map((f) => f.msg);
  return hits.length ? hits.join('; ') : undefined;
}

/** Whether every field error of a problem has a filter to sit under (else the page shows it whole). */
export const placedUnderFilters = (error: unknown) =>
  error instanceof ApiProblem && error.fields.length > 0 && error.fields.every((f) => f.loc[0] === 'query' && FILTER_KEYS.includes(f.loc[1] as FilterKey));

/** An ISO instant as a datetime-local input shows it (the wall clock in `zone`, to the second); '' when not a date. */
export function toLocalInput(iso: string | null, zone: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : wallClockIn(d, zone);
}

/**
 * A datetime-local value (a wall clock in `zone`, the account's display zone) as the instant the API
 * filters on. The input has whole seconds, so an upper bound ("until 10:05:30") takes the whole second:
 * the API's bounds are inclusive, and a call started at 10:05:30.4 is "until 10:05:30" to a person.
 */
export function fromLocalInput(local: string, upper: boolean, zone: string): string {
  if (!local) return '';
  const d = instantAt(local, zone);
  if (!d) return local;
  if (upper) d.setMilliseconds(999);
  return d.toISOString();
}

import { ApiProblem } from '../../api/client';

/**
 * The messages list's filters in the URL query string, under the API's own parameter names (as
 * the calls list does), so a filtered view can be shared and maps one to one onto GET /api/v1/messages/.
 */
export const MESSAGE_STATUSES = ['sending', 'queued', 'sent', 'delivered', 'read', 'undelivered', 'failed', 'received'];
export const MESSAGE_PURPOSES = ['follow_up', 'confirmation', 'reply', 'manual'];
export const CHANNELS = ['sms', 'whatsapp'];
export const DIRECTIONS = ['outbound', 'inbound'];

const MULTI = ['campaign_id', 'status', 'purpose', 'source'] as const;
const SINGLE = ['direction', 'contact_id', 'message', 'create_datetime_from', 'create_datetime_to'] as const;
export type FilterKey = (typeof MULTI)[number] | (typeof SINGLE)[number];
const KEYS: FilterKey[] = [...MULTI, ...SINGLE];

export const PAGE_SIZE = 25;

export function pageOf(params: URLSearchParams): number {
  const n = Number(params.get('page'));
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** The API query for the URL's filters and page; empty values left out, the rest passed as written (a bad one is the API's 422). */
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

export const activeFilters = (params: URLSearchParams) => KEYS.filter((k) => params.getAll(k).some(Boolean)).length;

/** The API's 422 message for a query parameter, shown under that filter. */
export function queryError(error: unknown, key: string): string | undefined {
  if (!(error instanceof ApiProblem)) return undefined;
  const hits = error.fields.filter((f) => f.loc[0] === 'query' && f.loc[1] === key).map((f) => f.msg);
  return hits.length ? hits.join('; ') : undefined;
}

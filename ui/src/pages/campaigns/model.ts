import { ApiProblem } from '../../api/client';
import type { paths } from '../../api/schema';

export type Campaign = paths['/api/v1/campaigns/{id}']['get']['responses'][200]['content']['application/json'];
export type CampaignCreate = paths['/api/v1/campaigns/']['post']['requestBody']['content']['application/json'];
export type CampaignUpdate = paths['/api/v1/campaigns/{id}']['put']['requestBody']['content']['application/json'];
export type PromptEntry = NonNullable<Campaign['prompt_history']>[number];

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const DAY_NAMES: Record<Weekday, string> = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };
export const LIMIT_UNITS = ['contacts', 'minutes', 'cost'] as const;

export interface Interval { from: string; to: string }

/** The form's values: strings for inputs, '' for "not set" (sent as null), numbers where the API wants numbers. */
export interface CampaignValues {
  title: string;
  description: string;
  campaign_type: 'Outbound' | 'Inbound';
  assistant_id: string | null;
  campaign_phone: string;
  campaign_sip: string;
  max_call_attempts: number | string;
  concurrent_call_limit: number | string;
  call_interval: (number | string)[];
  call_allowed_from_time: string;
  call_allowed_to_time: string;
  /** false: work_schedule null (no weekly schedule). */
  has_schedule: boolean;
  timezone: string;
  /** false: the schedule has no `days` (every day, all day). */
  limit_days: boolean;
  days: Record<Weekday, Interval[]>;
  skip_dates: string[];
  auto_calls: boolean;
  is_auto_ai_message: boolean;
  limit_start: string;
  limit_end: string;
  limit_value: number | string;
  limit_unit: string | null;
  prompt: string;
}

const emptyDays = (): Record<Weekday, Interval[]> => Object.fromEntries(WEEKDAYS.map((d) => [d, []])) as unknown as Record<Weekday, Interval[]>;
const text = (v: string | null | undefined) => v ?? '';
const num = (v: number | null | undefined) => (v === null || v === undefined ? '' : v);
// Times of day come back as HH:MM:SS; the inputs show HH:MM. A time left unchanged is not sent (see updateBody), so
// seconds are never lost.
const clock = (v: string | null | undefined) => (v ? v.slice(0, 5) : '');
// Limit periods are edited in UTC (labelled so): a datetime-local value plus Z, exact whatever the browser's zone.
const utcInput = (v: string | null | undefined) => (v ? new Date(v).toISOString().slice(0, 16) : '');
const promptText = (p: unknown) => (p === undefined || p === null ? '' : typeof p === 'string' ? p : JSON.stringify(p, null, 2));

export function valuesOf(c?: Campaign): CampaignValues {
  const ws = c?.work_schedule ?? null;
  const days = emptyDays();
  for (const d of WEEKDAYS) days[d] = (ws?.days?.[d] ?? []).map((i) => ({ from: i.from, to: i.to }));
  return {
    title: text(c?.title),
    description: text(c?.description),
    campaign_type: (c?.campaign_type ?? 'Outbound') as CampaignValues['campaign_type'],
    assistant_id: c?.assistant_id ? String(c.assistant_id) : null,
    campaign_phone: text(c?.campaign_phone),
    campaign_sip: text(c?.campaign_sip),
    max_call_attempts: c ? num(c.max_call_attempts) : 3,
    concurrent_call_limit: num(c?.concurrent_call_limit),
    call_interval: c?.call_interval ?? [],
    call_allowed_from_time: c ? clock(c.call_allowed_from_time) : '09:00',
    call_allowed_to_time: c ? clock(c.call_allowed_to_time) : '19:00',
    has_schedule: !!ws,
    timezone: ws?.timezone ?? 'UTC',
    limit_days: !!ws?.days,
    days,
    skip_dates: ws?.skip_dates ?? [],
    auto_calls: c?.auto_calls ?? false,
    is_auto_ai_message: c?.is_auto_ai_message ?? false,
    limit_start: utcInput(c?.limit_start),
    limit_end: utcInput(c?.limit_end),
    limit_value: num(c?.limit_value),
    limit_unit: c?.limit_unit ?? null,
    prompt: promptText(c?.campaign_data?.prompt),
  };
}

const orNull = (v: string) => (v.trim() === '' ? null : v.trim());
const numOrNull = (v: number | string) => (v === '' || v === null || v === undefined ? null : Number(v));
const timeOrNull = (v: string) => (v === '' ? null : v);
const utcOrNull = (v: string) => (v === '' ? null : `${v}:00Z`);

function scheduleOf(v: CampaignValues) {
  if (!v.has_schedule) return null;
  return {
    timezone: v.timezone,
    ...(v.limit_days ? { days: Object.fromEntries(WEEKDAYS.filter((d) => v.days[d].length > 0).map((d) => [d, v.days[d]])) } : {}),
    ...(v.skip_dates.length ? { skip_dates: [...v.skip_dates].sort() } : {}),
  };
}

/** A structured (object) prompt is edited as JSON and sent back as an object; text stays text. */
function promptValue(v: CampaignValues, original?: Campaign): unknown {
  const before = original?.campaign_data?.prompt;
  if (before !== null && typeof before === 'object') {
    try {
      const parsed: unknown = JSON.parse(v.prompt);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
    } catch { /* not JSON any more: kept as the text it is */ }
  }
  return v.prompt;
}

/** Every field of the create body, from the form. */
export function createBody(v: CampaignValues, original?: Campaign): CampaignCreate {
  // campaign_data is free-form: keys other than the prompt are kept as they were.
  const data: Record<string, unknown> = { ...(original?.campaign_data ?? {}) };
  if (v.prompt.trim() === '') delete data.prompt;
  else data.prompt = promptValue(v, original);
  return {
    title: v.title.trim(),
    description: orNull(v.description),
    campaign_type: v.campaign_type,
    assistant_id: v.assistant_id ? Number(v.assistant_id) : null,
    campaign_phone: orNull(v.campaign_phone),
    campaign_sip: orNull(v.campaign_sip),
    max_call_attempts: numOrNull(v.max_call_attempts),
    concurrent_call_limit: numOrNull(v.concurrent_call_limit),
    call_interval: v.call_interval.filter((m) => m !== '').map(Number),
    call_allowed_from_time: timeOrNull(v.call_allowed_from_time),
    call_allowed_to_time: timeOrNull(v.call_allowed_to_time),
    work_schedule: scheduleOf(v) as CampaignCreate['work_schedule'],
    auto_calls: v.auto_calls,
    is_auto_ai_message: v.is_auto_ai_message,
    limit_start: utcOrNull(v.limit_start),
    limit_end: utcOrNull(v.limit_end),
    limit_value: numOrNull(v.limit_value),
    limit_unit: (v.limit_unit || null) as CampaignCreate['limit_unit'],
    campaign_data: Object.keys(data).length ? data : null,
  };
}

/**
 * Only the fields the person changed: an untouched prompt records no history entry, an untouched
 * time keeps its seconds, and a sub-user's save does not rewrite what it did not edit.
 */
export function updateBody(v: CampaignValues, original: Campaign): CampaignUpdate {
  const now = createBody(v, original) as Record<string, unknown>;
  const before = createBody(valuesOf(original), original) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(now).filter(([k, value]) => JSON.stringify(value) !== JSON.stringify(before[k]))) as CampaignUpdate;
}

/** The API's 422 messages under one body field (nested ones with their path), for editors of a whole object. */
export function nestedErrors(error: unknown, field: string): string[] {
  const fields = error instanceof ApiProblem ? error.fields : [];
  return fields.filter((f) => f.loc[0] === 'body' && f.loc[1] === field).map((f) => (f.loc.length > 2 ? `${f.loc.slice(2).join('.')}: ${f.msg}` : f.msg));
}

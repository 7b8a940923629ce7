import { requireContactDataSize } from '../../shared/contact-data-limit.ts';
import { unprocessable } from '../../http/errors.ts';
import { unstorable } from '../../http/json-body.ts';
import { isValidTimeZone, unknownTimeZone } from '../../shared/timezone.ts';

/** One contact's parameters after parsing, whichever place they came from. */
export interface ContactInput {
  campaignId: number | null;
  name: string | null;
  phone: string;
  contactData: Record<string, unknown>;
  timezone: string | null;
  determineTimezone: boolean | null;
  startCall: boolean | null;
}

/** Where each value was read: `typed` (a JSON body) keeps JSON types; `text` (query, form) has strings. */
export interface InputSource {
  values: Record<string, unknown>;
  loc: string;
  typed: boolean;
}

const NAME_KEYS = ['name', 'fio', 'FIO', 'famili'] as const;

function pick(sources: InputSource[], key: string): { value: unknown; loc: (string | number)[]; typed: boolean } | null {
  for (const s of sources) {
    const value = s.values[key];
    if (value !== undefined && value !== null && value !== '') return { value, loc: [s.loc, key], typed: s.typed };
  }
  return null;
}

function readBoolean(found: ReturnType<typeof pick>): boolean | null {
  if (!found) return null;
  const v = found.value;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false|1|0)$/i.test(v)) return /^(true|1)$/i.test(v);
  throw unprocessable(found.loc, 'Input should be a valid boolean', 'bool_parsing');
}

/**
 * Reads one contact from its sources, first source first (a POST body before the query).
 * start_call is honoured only from a JSON body, never from the query or a form.
 */
export function readContactInput(sources: InputSource[]): ContactInput {
  // A JSON body was checked by its parser; query and form text was not (a NUL there was a 500).
  for (const source of sources) {
    const bad = source.typed ? null : unstorable(source.values);
    if (bad) throw unprocessable([source.loc, ...bad.loc], bad.msg);
  }
  const campaign = pick(sources, 'campaign_id');
  let campaignId: number | null = null;
  if (campaign) {
    const v = campaign.value;
    campaignId = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v.trim()) : NaN;
    if (!Number.isSafeInteger(campaignId)) throw unprocessable(campaign.loc, 'Input should be a valid integer', 'int_parsing');
  }

  const phone = pick(sources, 'phone') ?? pick(sources, 'msisdn');
  if (!phone) throw unprocessable([sources[0]?.loc ?? 'body', 'phone'], 'Field required: phone or msisdn', 'missing');
  if (typeof phone.value !== 'string' && typeof phone.value !== 'number') throw unprocessable(phone.loc, 'Input should be a valid string', 'string_type');

  const data = pick(sources, 'contact_data');
  let contactData: Record<string, unknown> = {};
  if (data) {
    let v = data.value;
    if (typeof v === 'string') {
      try {
        v = JSON.parse(v);
      } catch {
        throw unprocessable(data.loc, 'contact_data must be a JSON object (JSON text in the query)', 'json_invalid');
      }
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw unprocessable(data.loc, 'Input should be a valid dictionary or object', 'dict_type');
    const bad = unstorable(v);
    if (bad) throw unprocessable([...data.loc, ...bad.loc], bad.msg);
    requireContactDataSize(v, data.loc);
    contactData = { ...(v as Record<string, unknown>) };
  }

  const nameParam = pick(sources, 'name');
  if (nameParam && typeof nameParam.value !== 'string') throw unprocessable(nameParam.loc, 'Input should be a valid string', 'string_type');
  const fromData = NAME_KEYS.map((k) => contactData[k]).find((v) => typeof v === 'string' && v.trim() !== '');
  const name = ((nameParam?.value as string | undefined) ?? (fromData as string | undefined))?.trim() || null;

  const tz = pick(sources, 'timezone');
  let timezone: string | null = null;
  if (tz) {
    if (typeof tz.value !== 'string' || !isValidTimeZone(tz.value.trim())) throw unprocessable(tz.loc, unknownTimeZone(String(tz.value).trim()), 'timezone');
    timezone = tz.value.trim();
  }

  const start = pick(sources.filter((s) => s.typed), 'start_call');
  if (start && typeof start.value !== 'boolean') throw unprocessable(start.loc, 'Input should be a valid boolean', 'bool_type');

  return {
    campaignId,
    name,
    phone: String(phone.value),
    contactData,
    timezone,
    determineTimezone: readBoolean(pick(sources, 'determine_timezone')),
    startCall: start ? (start.value as boolean) : null,
  };
}

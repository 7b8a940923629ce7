import { unprocessable } from '../../http/errors.ts';
import { isValidTimeZone } from '../../shared/timezone.ts';
import { workScheduleProblem, type WorkSchedule } from '../contact-lifecycle/work-schedule.ts';
import { parseSipUri } from '../../voice/sip-uri.ts';

/**
 * Checks the schema cannot express. `body` is what the client sent; `current` the stored
 * values a partial update keeps, so a rule spanning two fields sees both.
 */
export interface RuleFields {
  work_schedule?: WorkSchedule | null | undefined;
  call_allowed_from_time?: string | null | undefined;
  call_allowed_to_time?: string | null | undefined;
  limit_start?: Date | string | null | undefined;
  limit_end?: Date | string | null | undefined;
  campaign_sip?: string | null | undefined;
}

const seconds = (time: string) => {
  const [h = '0', m = '0', s = '0'] = time.split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
};
const millis = (value: Date | string) => (value instanceof Date ? value : new Date(value)).getTime();
const merged = <K extends keyof RuleFields>(body: RuleFields, current: RuleFields, key: K) => (body[key] !== undefined ? body[key] : current[key]) ?? null;

export function checkCampaignRules(body: RuleFields, current: RuleFields = {}) {
  if (typeof body.campaign_sip === 'string') {
    const sip = parseSipUri(body.campaign_sip);
    if (!sip.ok) throw unprocessable(['body', 'campaign_sip'], sip.msg, sip.type);
  }

  if (body.work_schedule) {
    const problem = workScheduleProblem(body.work_schedule, isValidTimeZone);
    if (problem) throw unprocessable(['body', 'work_schedule', ...problem.path], problem.msg, problem.type);
  }

  if (body.call_allowed_from_time !== undefined || body.call_allowed_to_time !== undefined) {
    const from = merged(body, current, 'call_allowed_from_time');
    const to = merged(body, current, 'call_allowed_to_time');
    if (from !== null && to !== null && seconds(from) === seconds(to)) {
      const field = body.call_allowed_to_time !== undefined ? 'call_allowed_to_time' : 'call_allowed_from_time';
      throw unprocessable(['body', field], 'call_allowed_from_time and call_allowed_to_time must differ (from > to crosses midnight)');
    }
  }

  if (body.limit_start !== undefined || body.limit_end !== undefined) {
    const start = merged(body, current, 'limit_start');
    const end = merged(body, current, 'limit_end');
    if (start !== null && end !== null && millis(start) >= millis(end)) {
      const field = body.limit_end !== undefined ? 'limit_end' : 'limit_start';
      throw unprocessable(['body', field], 'limit_start must be earlier than limit_end');
    }
  }
}

/** Whether two JSON values are equal regardless of key order (jsonb reorders keys). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The prompt inside campaign_data, or undefined when there is none. */
export const promptOf = (campaignData: unknown): unknown =>
  campaignData !== null && typeof campaignData === 'object' && !Array.isArray(campaignData) ? (campaignData as Record<string, unknown>).prompt : undefined;

/**
 * campaign_data.prompt must be text or an object. Runs before schema validation, because
 * Ajv's type coercion would quietly turn a number or boolean prompt into a string.
 */
export async function rejectMistypedPrompt(request: { body: unknown }) {
  const prompt = promptOf((request.body as { campaign_data?: unknown } | null)?.campaign_data);
  if (prompt === undefined || typeof prompt === 'string' || (typeof prompt === 'object' && prompt !== null && !Array.isArray(prompt))) return;
  throw unprocessable(['body', 'campaign_data', 'prompt'], 'prompt must be a string or an object', 'prompt_type');
}

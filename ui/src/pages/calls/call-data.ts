import type { CallDetail } from './queries';

/**
 * What the call page reads from a call's free-form `call_data` (the API types it as any JSON object):
 * the transcript, the opt-out and the caller id the service records there. Read with checks rather
 * than a cast, so a call whose data lacks them (or holds another shape) shows none.
 */
export type Turn = { role: string; text: string };
export type OptOut = { detected_by: string; phrase: string | null };
export type CallerId = { number: string | null; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const textOrNull = (v: unknown) => (typeof v === 'string' ? v : null);

export function transcriptOf(call: CallDetail): Turn[] {
  const turns = call.call_data?.transcript;
  if (!Array.isArray(turns)) return [];
  return turns.filter(isObject).map((t) => ({ role: String(t.role), text: String(t.text ?? '') }));
}

export function optOutOf(call: CallDetail): OptOut | null {
  const o = call.call_data?.opt_out;
  return isObject(o) ? { detected_by: String(o.detected_by), phrase: textOrNull(o.phrase) } : null;
}

export function callerIdOf(call: CallDetail): CallerId | null {
  const c = call.call_data?.caller_id;
  return isObject(c) ? { number: textOrNull(c.number), reason: String(c.reason ?? '') } : null;
}

import { displayNameOf } from '../contacts/shared';
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

/**
 * Who a call was with, as a person reads it: the name in the call's contact data (`name`, else
 * `first_name` and `last_name`), else the number called (the caller's for an inbound call).
 */
export function contactNameOf(call: { contact_data?: Record<string, unknown> | null; call_type?: string | null; to_number?: string | null; from_number?: string | null }): string {
  return displayNameOf(isObject(call.contact_data) ? call : {}) || ((call.call_type === 'inbound' ? call.from_number : call.to_number) ?? '');
}

export type Analysis = { summary: string | null; success: string | null; sentiment: string | null };

/**
 * The vendor's analysis of the call kept in call_data.analysis (Vapi: summary and successEvaluation;
 * Retell: call_summary, call_successful and user_sentiment); null when there is none.
 */
export function analysisOf(call: CallDetail): Analysis | null {
  const a = call.call_data?.analysis;
  if (!isObject(a)) return null;
  const text = (...keys: string[]) => {
    for (const k of keys) {
      const v = a[k];
      if (typeof v === 'string' && v.trim()) return v.trim();
      if (typeof v === 'boolean') return v ? 'Yes' : 'No';
      if (typeof v === 'number') return String(v);
    }
    return null;
  };
  const result = { summary: text('summary', 'call_summary'), success: text('successEvaluation', 'success_evaluation', 'call_successful'), sentiment: text('sentiment', 'user_sentiment') };
  return result.summary || result.success || result.sentiment ? result : null;
}

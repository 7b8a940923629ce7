import type { NextAction } from './next-action.ts';

/**
 * What an attempt's outcome does to its contact (the table in docs/dialer.md). `retry`
 * schedules another attempt while attempts remain; `exhausted` is the contact's final status
 * when they do not. The outcomes are the terminal statuses of a call (voice/provider.ts
 * TERMINAL_CALL_STATUSES; call-finish.ts holds the two lists equal at compile time).
 */
export type AttemptOutcome =
  | 'finished' | 'failed' | 'busy_or_rejected' | 'invalid number' | 'insufficient funds'
  | 'rejected' | 'terminated' | 'unavailable' | 'voicemail' | 'silence';

export interface OutcomeRule {
  retry: boolean;
  exhausted: string;
}

export const OUTCOME_RULES: Record<AttemptOutcome, OutcomeRule> = {
  finished: { retry: false, exhausted: 'finished' },
  busy_or_rejected: { retry: true, exhausted: 'busy' },
  rejected: { retry: true, exhausted: 'busy' },
  unavailable: { retry: true, exhausted: 'no_answer' },
  voicemail: { retry: true, exhausted: 'no_answer' },
  silence: { retry: true, exhausted: 'not_reached' },
  terminated: { retry: true, exhausted: 'not_reached' },
  failed: { retry: true, exhausted: 'failed' },
  'invalid number': { retry: false, exhausted: 'invalid_number' },
  // Handled apart: the campaign is paused and the contact waits for it (attempt refunded).
  'insufficient funds': { retry: false, exhausted: 'awaiting_queue' },
};

export const DEFAULT_RETRY_MINUTES = 60;

/** Minutes before the n-th retry (1-based): call_interval[n-1], the last value repeating; 60 when unset. */
export function retryDelayMinutes(callInterval: number[] | null, retryNumber: number): number {
  if (!callInterval || callInterval.length === 0) return DEFAULT_RETRY_MINUTES;
  return callInterval[Math.min(retryNumber, callInterval.length) - 1]!;
}

/** The step after an attempt, before the calling window is applied to a retry (contact-window.ts). */
export type ContactAfterCall =
  | { kind: 'final'; status: string; next: NextAction }
  | { kind: 'retry'; at: Date; next: NextAction }
  | { kind: 'funds' };

export function contactAfterCall(input: {
  callStatus: AttemptOutcome;
  callType: string | null;
  attempts: number;
  maxAttempts: number | null;
  callInterval: number[] | null;
  now: Date;
}): ContactAfterCall {
  const { callStatus } = input;
  if (callStatus === 'insufficient funds') return { kind: 'funds' };
  const rule = OUTCOME_RULES[callStatus];
  const max = input.maxAttempts ?? 1;
  if (rule.retry && input.callType !== 'inbound' && input.attempts < max) {
    const minutes = retryDelayMinutes(input.callInterval, input.attempts);
    return {
      kind: 'retry',
      at: new Date(input.now.getTime() + minutes * 60_000),
      next: { code: 'retry_scheduled', reason: `retry ${input.attempts + 1} of ${max} after '${callStatus}' (call_interval ${minutes} min)` },
    };
  }
  const why = rule.retry && input.callType !== 'inbound' ? `'${callStatus}' and no attempts left (${input.attempts} of ${max})` : `last call '${callStatus}'`;
  return { kind: 'final', status: rule.exhausted, next: { code: 'completed', reason: why } };
}

/** A campaign's rules for the text after a call (its messaging settings). */
export interface TextFollowUpRules {
  follow_up_statuses: string[];
  confirm_interested: boolean;
  delay_minutes: number;
}

/**
 * The text a call's end asks for, if any: a follow-up after an outcome in the rules (an outbound
 * call that did not reach the person), or a confirmation after an interested call; never after an
 * opt-out. When it is due; the law (window, quiet hours, caps) is asked again at send time.
 */
export function textAfterCall(
  rules: TextFollowUpRules,
  call: { status: string; actionStatus: string | null; callType: string | null; end: Date; optedOut: boolean },
): { purpose: 'follow_up' | 'confirmation'; dueAt: Date } | null {
  if (call.optedOut) return null;
  const dueAt = new Date(call.end.getTime() + rules.delay_minutes * 60_000);
  if (rules.confirm_interested && call.actionStatus === 'interested') return { purpose: 'confirmation', dueAt };
  if (call.callType !== 'inbound' && rules.follow_up_statuses.includes(call.status)) return { purpose: 'follow_up', dueAt };
  return null;
}

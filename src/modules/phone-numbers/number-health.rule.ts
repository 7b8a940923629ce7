import type { RestCode } from '../../db/tables/phone-numbers.ts';
import type { TerminalCallStatus } from '../../voice/provider.ts';

/**
 * Number health: the rule, without a database (decide here, number-health.repository.ts applies).
 * A caller-ID number whose answer rate falls far below its account's, or whose short-call rate
 * rises far above, is likely labelled as spam by carriers' apps: people see "Spam likely" and do
 * not pick up, or hang up at once. Resting it for a while spreads the calls over the account's
 * healthy numbers and lets the label fade.
 */

export const HEALTH_DEFAULTS = {
  enabled: true,
  window_days: 3,
  min_calls: 30,
  answer_rate_ratio: 0.5,
  short_call_seconds: 10,
  short_call_ratio: 2,
  rest_hours: 24,
} as const;

export type HealthSettings = { -readonly [K in keyof typeof HEALTH_DEFAULTS]: (typeof HEALTH_DEFAULTS)[K] extends boolean ? boolean : number };

/**
 * The calls that count: outbound calls that ended reaching the network (a setup failure, the
 * breaker's business, says nothing about how people see the number). A carrier's rejection
 * counts: carriers block numbers they label.
 */
export const COUNTED_STATUSES = ['finished', 'terminated', 'silence', 'busy_or_rejected', 'rejected', 'unavailable', 'voicemail'] as const satisfies readonly TerminalCallStatus[];

/**
 * Answered: someone picked up. A finished call is a conversation; a terminated or silent one was
 * picked up and ended, or said nothing (the simulator ends a call someone hangs up at once as
 * terminated with no talk). Busy, no answer (unavailable), voicemail and a carrier's rejection are
 * not answered.
 */
export const ANSWERED_STATUSES = ['finished', 'terminated', 'silence'] as const satisfies readonly TerminalCallStatus[];

/** A short-call rate must also be this far above the account's (10 points): 3% against 1% is noise, not a label. */
export const SHORT_CALL_MARGIN = 0.1;

export interface Figures {
  calls: number;
  answered: number;
  /** Answered calls shorter than short_call_seconds. */
  short_calls: number;
}

export interface NumberFigures extends Figures {
  phone_number_id: number;
  owner_id: number;
  phone_number: string;
  /** A rest that still holds (the worker leaves it be), or null. */
  rested_until: Date | null;
}

export interface Verdict {
  phone_number_id: number;
  code: Exclude<RestCode, 'manual'>;
  reason: string;
  until: Date;
}

export const answerRate = (f: Figures) => (f.calls > 0 ? f.answered / f.calls : null);
export const shortCallRate = (f: Figures) => (f.answered > 0 ? f.short_calls / f.answered : null);

const pct = (x: number) => `${Math.round(x * 100)}%`;

/**
 * Which of an account's numbers to rest now: those not resting, with at least min_calls counted
 * calls, whose answer rate is under answer_rate_ratio × the account's, or whose short-call rate
 * (of the answered calls) is at least short_call_ratio × the account's and SHORT_CALL_MARGIN above
 * it. The account's figures are all its outbound calls of the window, from any number.
 */
export function judgeNumbers(numbers: NumberFigures[], account: Figures, settings: HealthSettings, now: Date): Verdict[] {
  if (!settings.enabled) return [];
  const accountAnswer = answerRate(account);
  const accountShort = shortCallRate(account) ?? 0;
  const until = new Date(now.getTime() + settings.rest_hours * 3_600_000);
  const verdicts: Verdict[] = [];
  for (const n of numbers) {
    if (n.rested_until && n.rested_until > now) continue;
    if (n.calls < settings.min_calls) continue;
    const rate = answerRate(n)!;
    if (accountAnswer !== null && rate < settings.answer_rate_ratio * accountAnswer) {
      verdicts.push({ phone_number_id: n.phone_number_id, code: 'answer_rate', until, reason: `answer rate ${pct(rate)} vs account ${pct(accountAnswer)}` });
      continue;
    }
    const short = shortCallRate(n);
    if (short !== null && short >= settings.short_call_ratio * accountShort && short >= accountShort + SHORT_CALL_MARGIN) {
      verdicts.push({ phone_number_id: n.phone_number_id, code: 'short_calls', until, reason: `short calls (under ${settings.short_call_seconds} s) ${pct(short)} of answered vs account ${pct(accountShort)}` });
    }
  }
  return verdicts;
}

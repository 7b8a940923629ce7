import { Type, type Static } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../http/schemas.ts';
import type { TerminalCallStatus } from '../../voice/provider.ts';

/**
 * A campaign's protection settings as GET/PUT /api/v1/campaigns/{id}/protection read and write
 * them: their own endpoint, so the interface's campaign schema stays exactly the interface's.
 */

/**
 * The call statuses that count as failures: a broken setup (a wrong number list, a dead line, a
 * vendor that refuses), not people. A vendor's refusal to start a call ends it with one of these
 * (dialer/outbound/start-calls.ts): invalid_number as `invalid number`, insufficient_funds as
 * `insufficient funds`, every other code as `failed`; a refusal for the vendor's rate limit places
 * no call and counts for nothing. Busy, no answer (unavailable), voicemail, silence, a call someone
 * ended (terminated) and a finished call are people: attempts, not failures.
 */
export const FAILURE_STATUSES = ['failed', 'invalid number', 'rejected', 'insufficient funds'] as const satisfies readonly TerminalCallStatus[];

export const FAILURES_DOC =
  'A failure is an outbound call that ended failed, invalid number, rejected (by the carrier) or insufficient funds, which is also how every refusal ' +
  'of the voice vendor to start a call ends except its rate limit (a rate-limited call is not placed and counts for nothing). Busy (busy_or_rejected), ' +
  'no answer (unavailable), voicemail, silence, terminated and finished calls are attempts but not failures: they are people, not a broken setup. ' +
  'Attempts are the outbound calls that ended in the window (inbound calls are not counted).';

export const PROTECTION_DEFAULTS = { breaker_enabled: true, failure_rate_threshold: 0.5, window_seconds: 120, min_attempts: 5 } as const;

const fields = {
  breaker_enabled: Type.Boolean({ description: 'the campaign pauses itself when its failure rate reaches failure_rate_threshold (default true)' }),
  failure_rate_threshold: Type.Number({
    minimum: 0.05, maximum: 1,
    description: 'failures per attempt in the window at or above which the campaign pauses itself, from 0.05 to 1 (default 0.5: half the calls)',
  }),
  window_seconds: Type.Integer({ minimum: 30, maximum: 86400, description: 'the sliding window, in seconds: calls that ended in the last window_seconds count (default 120, from 30 to 86400)' }),
  min_attempts: Type.Integer({ minimum: 1, maximum: 1000, description: 'attempts in the window before the rate is judged at all (default 5, from 1 to 1000)' }),
};

export const ProtectionSettings = Type.Object({
  campaign_id: Type.Integer(),
  ...fields,
  updated_at: Nullable(DateTime, { description: 'when they were last saved; null: never, these are the defaults' }),
});
export type ProtectionSettings = Static<typeof ProtectionSettings>;

export const ProtectionSettingsUpdate = Type.Object({
  breaker_enabled: Type.Optional(fields.breaker_enabled),
  failure_rate_threshold: Type.Optional(fields.failure_rate_threshold),
  window_seconds: Type.Optional(fields.window_seconds),
  min_attempts: Type.Optional(fields.min_attempts),
});
export type ProtectionSettingsUpdate = Static<typeof ProtectionSettingsUpdate>;

/** The figures the settings are made of, stored and merged. */
export type StoredProtection = { -readonly [K in keyof typeof PROTECTION_DEFAULTS]: (typeof PROTECTION_DEFAULTS)[K] extends boolean ? boolean : number };

/**
 * What a sub-user may not change (403 naming it): switching the breaker off. It guards what the
 * account spends and its numbers' reputation with carriers, like the campaign's owner-only
 * limits (campaigns/owner-only-fields.ts); tuning how sensitive it is stays with whoever runs
 * the campaign.
 */
export const PROTECTION_OWNER_ONLY = ['breaker_enabled'] as const;

export const PAUSE_REASONS = ['failure_rate'] as const;

export const PausedBy = Nullable(
  Type.Object({
    reason: StringEnum(PAUSE_REASONS, { description: 'failure_rate: too many of its calls failed (the circuit breaker)' }),
    failures: Type.Integer({ minimum: 0, description: 'failed calls in the window when it paused' }),
    attempts: Type.Integer({ minimum: 0, description: 'calls that ended in the window when it paused' }),
    window_seconds: Type.Integer({ minimum: 1, description: 'the window, in seconds' }),
    failure_rate_threshold: Type.Number({ description: 'the threshold the rate reached' }),
    at: DateTime,
  }),
  {
    description:
      'Why the campaign paused itself, while that pause holds; null when it is not paused, or paused by a person or by its vendor\'s insufficient funds. ' +
      'Resuming the campaign (is_paused false on PUT /api/v1/campaigns/{id}) clears it, and the failure count starts again from then. ' +
      FAILURES_DOC,
  },
);
export type PausedBy = Static<typeof PausedBy>;

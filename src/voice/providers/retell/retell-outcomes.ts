import type { CallEvent, TerminalCallStatus } from '../../provider.ts';
import type { DisconnectionReason } from './retell-types.ts';

/**
 * Retell's `disconnection_reason` -> our terminal status: THE table (docs/voice-providers.md
 * shows it, a test checks both agree row by row). The dialer's retry rules then follow the
 * status (modules/dialer/call-events/status-machine.ts).
 *
 * `refundAttempt`: Retell refused the call for the org's concurrency before anyone was
 * dialled, so the contact goes back to the queue without spending an attempt (as a 429 on
 * create-phone-call does). `endedBy`: who hung up, where the reason says.
 * Typed over the SDK's enum: an SDK upgrade with a new reason fails tsc until it is mapped here.
 */
export interface RetellOutcome {
  status: TerminalCallStatus;
  refundAttempt: boolean;
  endedBy: 'HUMAN' | 'AI' | null;
  actionStatus?: 'transferred';
}

const row = (status: TerminalCallStatus, extra: Partial<RetellOutcome> = {}): RetellOutcome => ({ status, refundAttempt: false, endedBy: null, ...extra });

export const RETELL_OUTCOMES: Record<DisconnectionReason, RetellOutcome> = {
  user_hangup: row('finished', { endedBy: 'HUMAN' }),
  agent_hangup: row('finished', { endedBy: 'AI' }),
  call_transfer: row('finished', { endedBy: 'AI', actionStatus: 'transferred' }),
  transfer_bridged: row('finished', { endedBy: 'AI', actionStatus: 'transferred' }),
  transfer_cancelled: row('finished'),
  call_take_over: row('finished'),
  // The conversation ran to the agent's limit: it happened, calling again would repeat it.
  max_duration_reached: row('finished', { endedBy: 'AI' }),
  voicemail_reached: row('voicemail'),
  // A phone tree answered, not the contact: try again later, like no answer.
  ivr_reached: row('unavailable'),
  inactivity: row('silence'),
  dial_busy: row('busy_or_rejected'),
  user_declined: row('busy_or_rejected', { endedBy: 'HUMAN' }),
  dial_no_answer: row('unavailable'),
  invalid_destination: row('invalid number'),
  no_valid_payment: row('insufficient funds'),
  concurrency_limit_reached: row('rejected', { refundAttempt: true }),
  no_concurrency_fallback: row('rejected', { refundAttempt: true }),
  marked_as_spam: row('rejected'),
  scam_detected: row('failed'),
  manual_stopped: row('terminated', { endedBy: 'AI' }),
  dial_failed: row('failed'),
  telephony_provider_permission_denied: row('failed'),
  telephony_provider_unavailable: row('failed'),
  sip_routing_error: row('failed'),
  registered_call_timeout: row('failed'),
  error_llm_websocket_open: row('failed'),
  error_llm_websocket_lost_connection: row('failed'),
  error_llm_websocket_runtime: row('failed'),
  error_llm_websocket_corrupt_payload: row('failed'),
  error_no_audio_received: row('failed'),
  error_asr: row('failed'),
  error_retell: row('failed'),
  error_unknown: row('failed'),
  error_user_not_joined: row('failed'),
};

/** An ended call without a reason we know still ends, as failed (else it would wait for an end that never comes). */
export const UNKNOWN_OUTCOME: RetellOutcome = row('failed');

/**
 * The outcome of an ended call: the table, except that Retell's voicemail detection
 * (`call_analysis.in_voicemail`) wins over a plain hang-up (the agent hangs up on a voicemail too).
 */
export function retellOutcome(reason: string | undefined, inVoicemail: boolean | undefined): RetellOutcome & { known: boolean } {
  const known = reason !== undefined && Object.hasOwn(RETELL_OUTCOMES, reason);
  const base = known ? RETELL_OUTCOMES[reason as DisconnectionReason] : UNKNOWN_OUTCOME;
  if (inVoicemail && (base.status === 'finished' || base.status === 'silence')) return { ...base, status: 'voicemail', actionStatus: undefined, known };
  return { ...base, known };
}

export type RetellEndFields = Pick<CallEvent, 'status' | 'endedBy' | 'actionStatus'>;

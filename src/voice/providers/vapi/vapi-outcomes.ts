import type { CallEvent, TerminalCallStatus } from '../../provider.ts';

/**
 * Vapi's `endedReason` -> our terminal call status: THE table (docs/voice-providers.md prints it,
 * vapi-outcomes.test.ts checks every row and that every reason in the SDK's CallEndedReason enum
 * lands on a row). Vapi has ~600 reasons, most of them one per model/voice/transcriber vendor
 * failure, so the tail is matched by prefix; exact rows win over prefix rows.
 *
 * `retryWithoutAttempt`: Vapi refused to start the call for a limit of ours (concurrency, the daily
 * cap of its free numbers): nobody was dialled, so the contact should go back to the queue without
 * spending an attempt, like a `rate_limited` refusal of POST /call.
 */
export interface VapiOutcomeRow {
  endedReason: string;
  match: 'exact' | 'prefix';
  status: TerminalCallStatus;
  retryWithoutAttempt: boolean;
  endedBy?: 'HUMAN' | 'AI';
  actionStatus?: 'transferred';
  why: string;
}

const row = (endedReason: string, status: TerminalCallStatus, why: string, extra: Partial<VapiOutcomeRow> = {}): VapiOutcomeRow =>
  ({ endedReason, match: 'exact', status, retryWithoutAttempt: false, why, ...extra });
const prefix = (endedReason: string, status: TerminalCallStatus, why: string): VapiOutcomeRow =>
  ({ endedReason, match: 'prefix', status, retryWithoutAttempt: false, why });

export const VAPI_OUTCOMES: readonly VapiOutcomeRow[] = [
  // Conversations that happened.
  row('customer-ended-call', 'finished', 'the contact hung up after talking', { endedBy: 'HUMAN' }),
  row('assistant-ended-call', 'finished', 'the assistant ended the call (endCall tool)', { endedBy: 'AI' }),
  row('assistant-said-end-call-phrase', 'finished', 'the assistant said an end-call phrase', { endedBy: 'AI' }),
  row('assistant-ended-call-with-hangup-task', 'finished', 'the assistant hung up (workflow hangup task)', { endedBy: 'AI' }),
  row('assistant-ended-call-after-message-spoken', 'finished', 'the assistant hung up after its last message', { endedBy: 'AI' }),
  row('exceeded-max-duration', 'finished', 'maxDurationSeconds reached mid-conversation', { endedBy: 'AI' }),
  row('assistant-forwarded-call', 'finished', 'the assistant transferred the call', { endedBy: 'AI', actionStatus: 'transferred' }),
  row('customer-ended-call-before-warm-transfer', 'finished', 'the contact hung up while a transfer was prepared', { endedBy: 'HUMAN' }),
  row('customer-ended-call-after-warm-transfer-attempt', 'finished', 'the contact hung up after a transfer attempt', { endedBy: 'HUMAN' }),
  row('customer-ended-call-during-transfer', 'finished', 'the contact hung up during a transfer', { endedBy: 'HUMAN' }),
  row('call.forwarding.operator-busy', 'finished', 'talked, then the transfer target was busy'),
  row('call.forwarding.no-answer', 'finished', 'talked, then the transfer target did not answer'),
  row('call.in-progress.twilio-completed-call', 'finished', 'the carrier (Twilio) completed the call'),
  row('call.in-progress.sip-completed-call', 'finished', 'the SIP trunk completed the call'),
  row('vonage-completed', 'finished', 'the carrier (Vonage) completed the call'),
  // Not reached.
  row('customer-busy', 'busy_or_rejected', 'the line was busy'),
  row('vonage-rejected', 'rejected', 'the carrier (Vonage) rejected the call'),
  row('customer-did-not-answer', 'unavailable', 'rang out without an answer'),
  row('voicemail', 'voicemail', 'voicemail detected (message left or hung up as the assistant says)'),
  row('silence-timed-out', 'silence', 'nobody spoke for silenceTimeoutSeconds'),
  row('call.in-progress.error-assistant-did-not-receive-customer-audio', 'silence', 'no audio from the contact'),
  row('customer-did-not-give-microphone-permission', 'silence', 'web call without a microphone'),
  row('twilio-reported-customer-misdialed', 'invalid number', 'the carrier says the number does not exist'),
  row('call.start.error-get-customer', 'invalid number', 'Vapi could not use the customer (number)'),
  row('call.start.error-vapi-number-international', 'invalid number', 'Vapi\'s free numbers do not dial abroad: no retry helps'),
  row('call.start.error-fraud-check-failed', 'rejected', 'Vapi\'s fraud check refused the destination'),
  row('twilio-failed-to-connect-call', 'failed', 'the carrier (Twilio) could not connect'),
  row('vonage-failed-to-connect-call', 'failed', 'the carrier (Vonage) could not connect'),
  row('call.in-progress.error-sip-outbound-call-failed-to-connect', 'failed', 'the SIP trunk could not connect'),
  row('vonage-disconnected', 'failed', 'the carrier (Vonage) dropped the call'),
  row('phone-call-provider-closed-websocket', 'failed', 'the carrier closed the audio stream'),
  row('phone-call-provider-bypass-enabled-but-no-call-received', 'failed', 'the carrier never delivered the call'),
  row('worker-shutdown', 'failed', 'a Vapi worker stopped mid-call'),
  row('assistant-join-timed-out', 'failed', 'the assistant did not join in time'),
  row('call-start-error-neither-assistant-nor-server-set', 'failed', 'no assistant and no server URL (configuration)'),
  // Ended by someone else.
  row('manually-canceled', 'terminated', 'ended through the API or dashboard (our hangup)'),
  row('call-deleted', 'terminated', 'the call was deleted'),
  row('scheduled-call-deleted', 'terminated', 'a scheduled call was deleted'),
  row('call.ringing.sip-inbound-caller-hungup-before-call-connect', 'terminated', 'an inbound caller hung up before the connect'),
  // Refusals for our account's state or limits (nobody was dialled).
  row('call.start.error-subscription-insufficient-credits', 'insufficient funds', 'Vapi credits exhausted'),
  row('call.start.error-subscription-wallet-does-not-exist', 'insufficient funds', 'no Vapi wallet'),
  row('call.start.error-subscription-frozen', 'insufficient funds', 'the Vapi subscription is frozen (billing)'),
  row('call.start.error-subscription-upgrade-failed', 'insufficient funds', 'the Vapi subscription upgrade failed (billing)'),
  row('call.start.error-subscription-concurrency-limit-reached', 'failed', 'Vapi\'s concurrency limit: requeue, no attempt spent', { retryWithoutAttempt: true }),
  row('call.start.error-vapi-number-outbound-daily-limit', 'failed', 'the daily cap of Vapi\'s free numbers: requeue, no attempt spent', { retryWithoutAttempt: true }),
  // Hooks that ran a say/transfer at the ring or the end: the call itself went normally.
  prefix('call.ringing.hook-executed-', 'finished', 'a ringing hook said something or transferred'),
  prefix('call.ending.hook-executed-', 'finished', 'an ending hook said something or transferred'),
  // Families of technical failures (one reason per vendor in Vapi's pipeline).
  prefix('assistant-request-', 'failed', 'the inbound assistant-request failed or returned an error'),
  prefix('call.start.', 'failed', 'Vapi could not start the call (configuration or Vapi fault)'),
  prefix('assistant-not-', 'failed', 'the assistant is missing or invalid (configuration)'),
  prefix('pipeline-error-', 'failed', 'a model, voice or transcriber failed'),
  prefix('call.in-progress.error-', 'failed', 'a model, voice, transcriber or transport failed mid-call'),
  prefix('call.ringing.error-', 'failed', 'the call failed while ringing'),
];

/** Reasons no row names (new ones Vapi adds): the call still ends, as failed. */
export const VAPI_UNKNOWN_OUTCOME: VapiOutcomeRow = { endedReason: '*', match: 'prefix', status: 'failed', retryWithoutAttempt: false, why: 'a reason this table does not know' };

const EXACT = new Map(VAPI_OUTCOMES.filter((r) => r.match === 'exact').map((r) => [r.endedReason, r]));
// Longest prefix first, so a narrower family wins over a wider one.
const PREFIXES = VAPI_OUTCOMES.filter((r) => r.match === 'prefix').sort((a, b) => b.endedReason.length - a.endedReason.length);

export function vapiOutcome(endedReason: string | null | undefined): VapiOutcomeRow {
  if (!endedReason) return VAPI_UNKNOWN_OUTCOME;
  return EXACT.get(endedReason) ?? PREFIXES.find((r) => endedReason.startsWith(r.endedReason)) ?? VAPI_UNKNOWN_OUTCOME;
}

/** The CallEvent fields an endedReason decides. */
export function outcomeFields(endedReason: string | null | undefined): Pick<CallEvent, 'status' | 'endedBy' | 'actionStatus' | 'refundAttempt'> {
  const r = vapiOutcome(endedReason);
  return {
    status: r.status, endedBy: r.endedBy ?? null, ...(r.actionStatus ? { actionStatus: r.actionStatus } : {}),
    ...(r.retryWithoutAttempt ? { refundAttempt: true } : {}),
  };
}

import type { CallStatus } from 'twilio/lib/rest/api/v2010/account/call.js';
import type { CallEvent, TerminalCallStatus } from '../../provider.ts';
import { statusOfSipCode } from '../../sip-codes.ts';

/**
 * Twilio's callbacks as CallEvents. Twilio posts forms, not JSON: a status callback carries
 * CallStatus, a recording callback RecordingSid. Our call id is the `call` parameter of the URL
 * Twilio was given (it echoes no metadata). The transcript and outcome are not Twilio's: our own
 * agent holds them (agent_conversations), and the events service adds them to the end.
 */

/** Twilio's final statuses as the interface's CallStatus, with the reason kept on the call. */
export const TWILIO_OUTCOMES: Record<Exclude<CallStatus, 'queued' | 'ringing' | 'in-progress'>, { status: TerminalCallStatus; reason: string }> = {
  completed: { status: 'finished', reason: 'the call was answered and completed' },
  busy: { status: 'busy_or_rejected', reason: 'the line was busy' },
  'no-answer': { status: 'unavailable', reason: 'rang out without an answer' },
  failed: { status: 'failed', reason: 'Twilio could not place the call (invalid or unreachable number)' },
  canceled: { status: 'terminated', reason: 'the call was canceled before it was answered' },
};

/** What a machine answering (AnsweredBy from answering-machine detection) makes of a completed call. */
export const isMachine = (answeredBy: string | null | undefined) => typeof answeredBy === 'string' && (answeredBy.startsWith('machine') || answeredBy === 'fax');

export function callIdFromUrl(url: string | undefined): number | null {
  if (!url) return null;
  const raw = new URL(url).searchParams.get('call');
  return raw !== null && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}

export function parseTwilioCallback(params: URLSearchParams, callId: number | null, at: Date): CallEvent[] {
  const providerCallId = params.get('CallSid');
  if (!providerCallId) throw new TypeError('a Twilio callback without CallSid');
  const recordingSid = params.get('RecordingSid');
  if (recordingSid) {
    const url = params.get('RecordingUrl');
    if (params.get('RecordingStatus') !== 'completed' || !url) return [];
    return [{ eventId: `twilio-recording-${recordingSid}`, callId, providerCallId, type: 'recording', at, recordUrl: url }];
  }
  const status = params.get('CallStatus') as CallStatus | null;
  const eventId = `twilio-${providerCallId}-${status}`;
  if (status === 'ringing') return [{ eventId, callId, providerCallId, type: 'ringing', at }];
  if (status === 'in-progress') return [{ eventId, callId, providerCallId, type: 'answered', at }];
  if (status === null || status === 'queued' || !(status in TWILIO_OUTCOMES)) return [];
  const outcome = TWILIO_OUTCOMES[status as keyof typeof TWILIO_OUTCOMES];
  const duration = Number(params.get('CallDuration') ?? params.get('Duration') ?? 0);
  const machine = isMachine(params.get('AnsweredBy'));
  // A call to a SIP URI carries the trunk's final answer; it says more than Twilio's status.
  const sipCode = Number(params.get('SipResponseCode') ?? NaN);
  const sip = status !== 'completed' ? statusOfSipCode(sipCode) : null;
  return [{
    eventId, callId, providerCallId, type: 'ended', at,
    status: sip ? sip.status : status === 'completed' && machine ? 'voicemail' : outcome.status,
    endedReason: sip ? sip.reason : status === 'completed' && machine ? 'an answering machine took the call' : outcome.reason,
    durationSec: Number.isFinite(duration) && duration >= 0 ? Math.round(duration) : 0,
    ...(Number.isInteger(sipCode) && sipCode >= 100 && sipCode <= 699 && { sipCode }),
  }];
}

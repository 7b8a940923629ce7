import { createHash } from 'node:crypto';
import type { CallEvent, InboundCallRequest, TranscriptTurn } from '../../provider.ts';
import { retellOutcome } from './retell-outcomes.ts';
import type { PhoneCallResponse, RetellInboundBody, RetellWebhookBody } from './retell-types.ts';
import { idFromMetadata } from '../../metadata-id.ts';

/**
 * Pure parsing of what Retell posts to POST /api/v1/voice/retell/events.
 *
 * - call_started -> `answered` (`ringing` while the call is still `registered`).
 * - call_ended -> `ended`, its status from the outcome table.
 * - transcript_updated -> a `turn` per turn so far, numbered (the live stream shows each once).
 * - call_analyzed -> `ended` again with the same status: the core treats an end of a call
 *   that already ended as a fill of the fields still empty (call-events.service.ts), so the
 *   analysis (and anything the lost or late call_ended would have brought) reaches the call;
 *   and if call_ended was lost, call_analyzed ends the call itself (it carries the whole call).
 * Event ids are `<event>:<call_id>`, stable across Retell's redeliveries.
 */
export function parseRetellEvents(rawBody: string): CallEvent[] {
  const body = JSON.parse(rawBody) as Partial<RetellWebhookBody>;
  const call = body.call;
  if (!call || typeof call.call_id !== 'string') return [];
  if (body.event === 'call_started') return [startedEvent(call)];
  if (body.event === 'call_ended' || body.event === 'call_analyzed') return [endedEvent(call, body.event)];
  if (body.event === 'transcript_updated') return turnEvents(call);
  return []; // transfer_* and future events change nothing we store
}

/**
 * transcript_updated: Retell's turn-taking update, the whole transcript so far. Every turn goes
 * out with its place in the transcript; the live stream shows a place once, so each update adds
 * only its new turns, and a redelivery adds nothing. Nothing is stored (call_ended brings the
 * transcript).
 */
function turnEvents(call: PhoneCallResponse): CallEvent[] {
  const at = new Date();
  return transcriptOf(call).map((turn, seq) => ({
    eventId: `transcript_updated:${call.call_id}:${seq}`, callId: callIdOf(call), providerCallId: call.call_id, type: 'turn', at, turn, turnSeq: seq,
  }));
}

/** Our call id, from the metadata we set at create-phone-call (or in the inbound answer). */
export function callIdOf(call: Pick<PhoneCallResponse, 'metadata'>): number | null {
  const meta = call.metadata as { call_id?: unknown } | null | undefined;
  return idFromMetadata(meta?.call_id);
}

function startedEvent(call: PhoneCallResponse): CallEvent {
  return {
    eventId: `call_started:${call.call_id}`,
    callId: callIdOf(call),
    providerCallId: call.call_id,
    type: call.call_status === 'registered' ? 'ringing' : 'answered',
    at: new Date(call.start_timestamp ?? Date.now()),
  };
}

/** Also what fetchCall returns for a call Retell reports ended (same id as call_ended: a later delivery is a duplicate). */
export function endedEvent(call: PhoneCallResponse, event: 'call_ended' | 'call_analyzed'): CallEvent {
  const analysis = call.call_analysis;
  const outcome = retellOutcome(call.disconnection_reason, analysis?.in_voicemail);
  const reason = call.disconnection_reason ?? (call.call_status === 'error' ? 'error' : 'unknown');
  const transcript = transcriptOf(call);
  const at = call.end_timestamp ?? call.start_timestamp;
  const event_: CallEvent = {
    eventId: `${event}:${call.call_id}`,
    callId: callIdOf(call),
    providerCallId: call.call_id,
    type: 'ended',
    at: new Date(at ?? 0),
    status: outcome.status,
    endedReason: outcome.known ? reason : `unknown disconnection_reason '${reason}'`,
    endedBy: outcome.endedBy,
  };
  const duration = durationSecOf(call);
  if (duration !== undefined) event_.durationSec = duration;
  // Retell's combined_cost is in cents; CallEvent.cost is in dollars.
  if (typeof call.call_cost?.combined_cost === 'number') event_.cost = Math.round(call.call_cost.combined_cost * 100) / 10_000;
  if (transcript.length) event_.transcript = transcript;
  if (call.recording_url) event_.recordUrl = call.recording_url;
  if (outcome.actionStatus) event_.actionStatus = outcome.actionStatus;
  if (outcome.refundAttempt) event_.refundAttempt = true;
  if (analysis) event_.analysis = analysis as Record<string, unknown>;
  return event_;
}

function durationSecOf(call: PhoneCallResponse): number | undefined {
  if (typeof call.duration_ms === 'number') return Math.round(call.duration_ms / 1000);
  if (typeof call.start_timestamp === 'number' && typeof call.end_timestamp === 'number') return Math.max(0, Math.round((call.end_timestamp - call.start_timestamp) / 1000));
  return undefined;
}

/** Retell's `agent` speaks for our assistant; a transfer target is a person, like the user. */
function transcriptOf(call: PhoneCallResponse): TranscriptTurn[] {
  return (call.transcript_object ?? [])
    .filter((t) => typeof t.content === 'string' && t.content.length > 0)
    .map((t) => ({ role: t.role === 'agent' ? 'assistant' : 'user', text: t.content }));
}

/**
 * The inbound request in a call_inbound body, or null for event bodies. Retell creates no
 * call (and no call id) before we answer, so the provider call id is made from the body:
 * `retell-inbound-<sha256 of the raw body, 24 hex>`; Retell's redeliveries of the same
 * request (up to 3, same body) give the same id, and its events name our call id in the
 * metadata we answer with, so they find the call whatever id it was recorded with.
 */
export function parseRetellInbound(rawBody: string): InboundCallRequest | null {
  const body = JSON.parse(rawBody) as Partial<RetellInboundBody>;
  if (body.event !== 'call_inbound' || !body.call_inbound) return null;
  const { from_number, to_number } = body.call_inbound;
  if (typeof from_number !== 'string' || typeof to_number !== 'string') return null;
  return {
    providerCallId: `retell-inbound-${createHash('sha256').update(rawBody).digest('hex').slice(0, 24)}`,
    from: from_number,
    to: to_number,
    toProviderNumberId: null,
  };
}

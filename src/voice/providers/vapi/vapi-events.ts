import type { Vapi } from '@vapi-ai/server-sdk';
import type { CallEvent, InboundCallRequest, TranscriptTurn } from '../../provider.ts';
import { outcomeFields } from './vapi-outcomes.ts';
import { sipOutcome } from './vapi-sip.ts';
import { idFromMetadata } from '../../metadata-id.ts';

/**
 * Pure: Vapi's server messages (`{ message: { type, call, ... } }`) and call records as CallEvents.
 * Four message types matter: status-update (ringing, answered), final transcripts (a turn for the
 * live stream; partial ones are ignored), end-of-call-report (the end, with everything),
 * assistant-request (inbound, see parseAssistantRequest). The others Vapi may send
 * (speech-update, conversation-update...) are ignored.
 *
 * Event ids are derived from what Vapi cannot change between two deliveries of one message (type,
 * call id, status), never from a delivery time, so a repeat is recognised as a duplicate. The end
 * has one id whether it comes from the report or from GET /call (fetchCall), so a report arriving
 * after a reconciliation is a duplicate too.
 */
type AnyMessage = { type?: string; timestamp?: number; call?: Vapi.Call } & Partial<Vapi.ServerMessageStatusUpdate> & Partial<Omit<Vapi.ServerMessageEndOfCallReport, 'type'>>
  & Partial<Pick<Vapi.ServerMessageTranscript, 'role' | 'transcriptType' | 'transcript'>>;

export const endEventId = (providerCallId: string) => `vapi:${providerCallId}:end`;

/** Our call id, from the metadata we put on the assistant or its overrides (vapi-requests.ts). */
export function callIdOf(call: Vapi.Call | undefined, assistant?: Vapi.CreateAssistantDto): number | null {
  for (const m of [call?.assistantOverrides?.metadata, call?.assistant?.metadata, assistant?.metadata]) {
    const id = idFromMetadata(m?.call_id);
    if (id !== null) return id;
  }
  return null;
}

export function transcriptOf(messages: readonly unknown[] | undefined): TranscriptTurn[] {
  const turns: TranscriptTurn[] = [];
  for (const m of messages ?? []) {
    const { role, message } = (m ?? {}) as { role?: string; message?: unknown };
    if (typeof message !== 'string' || !message) continue;
    if (role === 'bot' || role === 'assistant') turns.push({ role: 'assistant', text: message });
    else if (role === 'user') turns.push({ role: 'user', text: message });
  }
  return turns;
}

function durationSec(startedAt: string | undefined, endedAt: string | undefined): number {
  const ms = startedAt && endedAt ? Date.parse(endedAt) - Date.parse(startedAt) : NaN;
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms / 1000) : 0;
}

function when(...candidates: (number | string | undefined)[]): Date | null {
  for (const c of candidates) {
    const t = typeof c === 'number' ? c : c ? Date.parse(c) : NaN;
    if (Number.isFinite(t)) return new Date(t);
  }
  return null;
}

/** The end as CallEvent fields, from a report or a call record (they carry the same fields). */
function ended(input: {
  call: Vapi.Call; endedReason: string | undefined; startedAt: string | undefined; endedAt: string | undefined;
  cost: number | undefined; artifact: Vapi.Artifact | undefined; analysis: Vapi.Analysis | undefined; at: Date; callId: number | null;
}): CallEvent {
  const { artifact } = input;
  const recordUrl = artifact?.recordingUrl ?? (input.call as { recordingUrl?: string }).recordingUrl ?? artifact?.recording?.mono?.combinedUrl;
  const transcript = transcriptOf(artifact?.messages ?? input.call.messages);
  return {
    eventId: endEventId(input.call.id),
    callId: input.callId,
    providerCallId: input.call.id,
    type: 'ended',
    at: input.at,
    ...outcomeFields(input.endedReason),
    // A reason with the trunk's SIP code (…-outbound-sip-480-…): the code decides, as on every vendor.
    ...sipOutcome(input.endedReason),
    endedReason: input.endedReason ?? 'unknown (Vapi sent no endedReason)',
    durationSec: durationSec(input.startedAt, input.endedAt),
    ...(typeof input.cost === 'number' ? { cost: input.cost } : {}),
    ...(transcript.length ? { transcript } : {}),
    ...(recordUrl ? { recordUrl } : {}),
    ...(input.analysis && Object.keys(input.analysis).length ? { analysis: { ...input.analysis } } : {}),
    // Asked for (a recording-consent plan): granted when grantedAt is set, refused otherwise.
    ...(input.call.compliance?.recordingConsent ? { recordingConsent: Boolean(input.call.compliance.recordingConsent.grantedAt) } : {}),
  };
}

/** A parsed body; null when it is not JSON or not a message. */
function messageOf(rawBody: string): AnyMessage | null {
  try {
    const body = JSON.parse(rawBody) as { message?: AnyMessage };
    return body && typeof body.message === 'object' && body.message ? body.message : null;
  } catch {
    return null;
  }
}

export function parseVapiMessage(rawBody: string, now: Date): CallEvent[] {
  const m = messageOf(rawBody);
  const call = m?.call;
  if (!m || !call?.id) return [];
  const callId = callIdOf(call, m.assistant);
  if (m.type === 'status-update') {
    const type = m.status === 'ringing' ? 'ringing' : m.status === 'in-progress' ? 'answered' : null;
    // `ended` is left to the report, which carries the cost and transcript; the reconciler
    // (fetchCall) covers a report that never comes.
    if (!type) return [];
    return [{ eventId: `vapi:${call.id}:${m.status}`, callId, providerCallId: call.id, type, at: when(m.timestamp) ?? now }];
  }
  if (String(m.type).startsWith('transcript')) {
    // A turn changes nothing stored (the report carries the transcript): its id needs no stability.
    if (m.transcriptType !== 'final' || typeof m.transcript !== 'string' || !m.transcript.trim()) return [];
    const role = m.role === 'user' ? 'user' : 'assistant';
    return [{ eventId: `vapi:${call.id}:turn:${m.timestamp ?? now.getTime()}`, callId, providerCallId: call.id, type: 'turn', at: when(m.timestamp) ?? now, turn: { role, text: m.transcript.trim() } }];
  }
  if (m.type === 'end-of-call-report') {
    return [ended({
      call, callId, endedReason: m.endedReason ?? call.endedReason, startedAt: m.startedAt ?? call.startedAt, endedAt: m.endedAt ?? call.endedAt,
      cost: m.cost ?? call.cost, artifact: m.artifact ?? call.artifact, analysis: m.analysis ?? call.analysis,
      at: when(m.endedAt, m.timestamp, call.endedAt) ?? now,
    })];
  }
  return [];
}

/** GET /call/{id} as fetchCall's answer: the end when Vapi says ended, else in progress. */
export function callRecordEvent(call: Vapi.Call, now: Date): CallEvent | null {
  if (call.status !== 'ended') return null;
  return ended({
    call, callId: callIdOf(call), endedReason: call.endedReason, startedAt: call.startedAt, endedAt: call.endedAt,
    cost: call.cost, artifact: call.artifact, analysis: call.analysis, at: when(call.endedAt, call.updatedAt) ?? now,
  });
}

export function parseAssistantRequest(rawBody: string): InboundCallRequest | null {
  const m = messageOf(rawBody) as (Partial<Vapi.ServerMessageAssistantRequest> & { type?: string }) | null;
  if (m?.type !== 'assistant-request' || !m.call?.id) return null;
  // A Vapi SIP number (provider vapi, sipUri sip:desk@sip.vapi.ai) has a SIP address, not a number; a SIP caller a sipUri.
  const phone = m.phoneNumber as { number?: string; sipUri?: string } | undefined;
  const to = phone?.number ?? phone?.sipUri ?? '';
  const customer = m.call.customer ?? m.customer;
  return { providerCallId: m.call.id, from: customer?.number ?? customer?.sipUri ?? '', to, toProviderNumberId: m.call.phoneNumberId ?? null };
}

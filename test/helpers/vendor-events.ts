import { signRetell } from '../../src/voice/providers/retell/retell-signature.ts';
import { twilioSignature } from '../../src/voice/providers/twilio/twilio-signature.ts';

/**
 * Correctly signed vendor requests naming a call by our id, one per vendor entry point: what a
 * vendor (or an account that holds a route's credentials) can post. Used to check that an event
 * only touches calls of its own route (docs/voice-providers.md, "Routes"): signed with one
 * route's credentials and naming another route's call, each must change nothing.
 */
export interface RouteCredentials {
  /** The voice connection; null = the service's environment credentials. */
  connectionId: number | null;
  /** Vapi: the server secret; Retell: the API key; Twilio: the auth token. */
  secret: string;
}

export interface SignedVendorRequest {
  label: string;
  vendor: 'vapi' | 'retell' | 'twilio';
  url: string;
  headers: Record<string, string>;
  payload: string;
}

const FORGED = {
  transcript: 'forged transcript by another account',
  recordUrl: 'https://tracker.example.net/pixel.gif',
  cost: 9.99,
};

let serial = 0;
const query = (params: Record<string, number | null | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) q.set(k, String(v));
  return q.size ? `?${q}` : '';
};

/** Vapi's end-of-call report: ends the call (a transfer: action_status), cost, transcript, recording. */
export function vapiEndRequest(credentials: RouteCredentials, callId: unknown, now = new Date()): SignedVendorRequest {
  const started = new Date(now.getTime() - 95_000).toISOString();
  const payload = JSON.stringify({
    message: {
      type: 'end-of-call-report', endedReason: 'assistant-forwarded-call', cost: FORGED.cost, startedAt: started, endedAt: now.toISOString(),
      artifact: { messages: [{ role: 'user', message: FORGED.transcript }], recordingUrl: FORGED.recordUrl },
      analysis: { summary: FORGED.transcript, structuredData: { interested: true } },
      call: { id: `vapi-forged-${++serial}`, assistantOverrides: { metadata: { call_id: callId } } },
    },
  });
  return {
    label: 'vapi end-of-call-report', vendor: 'vapi', url: `/api/v1/voice/vapi/events${query({ connection: credentials.connectionId })}`,
    headers: { 'content-type': 'application/json', 'x-vapi-secret': credentials.secret }, payload,
  };
}

/** Retell's call_ended (or call_analyzed): ends or fills the call, a transfer, cost, transcript, recording. */
export function retellEndRequest(credentials: RouteCredentials, callId: unknown, event: 'call_ended' | 'call_analyzed' = 'call_ended', now = new Date()): SignedVendorRequest {
  const payload = JSON.stringify({
    event,
    call: {
      call_id: `retell-forged-${++serial}`, call_status: 'ended', metadata: { call_id: callId }, disconnection_reason: 'call_transfer',
      start_timestamp: now.getTime() - 95_000, end_timestamp: now.getTime(), recording_url: FORGED.recordUrl,
      transcript_object: [{ role: 'user', content: FORGED.transcript, words: [] }], call_cost: { combined_cost: FORGED.cost * 100 },
      call_analysis: { call_summary: FORGED.transcript, custom_analysis_data: { interested: true } },
    },
  });
  return {
    label: `retell ${event}`, vendor: 'retell', url: `/api/v1/voice/retell/events${query({ connection: credentials.connectionId })}`,
    headers: { 'content-type': 'application/json', 'x-retell-signature': signRetell(credentials.secret, payload, now) }, payload,
  };
}

/** A form POST to one of Twilio's entry points, signed as Twilio signs it (PUBLIC_BASE_URL + path and query, then the form). */
export function twilioRequest(publicBaseUrl: string, credentials: RouteCredentials, entry: 'events' | 'twiml' | 'action' | 'amd', callId: number, form: Record<string, string>, label: string): SignedVendorRequest {
  const url = `/api/v1/voice/twilio/${entry}${query({ call: callId, connection: credentials.connectionId })}`;
  const params = new URLSearchParams(form);
  return {
    label, vendor: 'twilio', url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(credentials.secret, publicBaseUrl.replace(/\/+$/, '') + url, params) },
    payload: params.toString(),
  };
}

/** Every Twilio HTTP entry point with a request that would change the named call (the relay socket is a WebSocket: see relayHandshake). */
export function twilioRequests(publicBaseUrl: string, credentials: RouteCredentials, callId: number): SignedVendorRequest[] {
  const sid = `CAforged${String(++serial).padStart(24, '0')}`;
  return [
    twilioRequest(publicBaseUrl, credentials, 'twiml', callId, { CallSid: sid, From: '+12125550100', To: '+12125550199', CallStatus: 'in-progress' }, 'twilio twiml'),
    twilioRequest(publicBaseUrl, credentials, 'amd', callId, { CallSid: sid, AnsweredBy: 'machine_end_beep' }, 'twilio amd'),
    twilioRequest(publicBaseUrl, credentials, 'action', callId, { CallSid: sid, HandoffData: JSON.stringify({ reason: 'transfer' }) }, 'twilio action'),
    twilioRequest(publicBaseUrl, credentials, 'events', callId, { CallSid: sid, RecordingSid: `RE${sid.slice(2)}`, RecordingUrl: FORGED.recordUrl, RecordingStatus: 'completed' }, 'twilio recording callback'),
    twilioRequest(publicBaseUrl, credentials, 'events', callId, { CallSid: sid, CallStatus: 'completed', CallDuration: '95' }, 'twilio status callback'),
  ];
}

/** The ConversationRelay socket's handshake headers and path, signed over the ws:// URL alone. */
/** A signed handshake of one of Twilio's sockets to us: ConversationRelay (default) or a Media Stream. */
export function relayHandshake(publicBaseUrl: string, credentials: RouteCredentials, callId: number, socket: 'relay' | 'media' = 'relay') {
  const path = `/api/v1/voice/twilio/${socket}${query({ call: callId, connection: credentials.connectionId })}`;
  return { path, signature: twilioSignature(credentials.secret, publicBaseUrl.replace(/\/+$/, '').replace(/^http/, 'ws') + path) };
}

export function vendorRequests(publicBaseUrl: string, creds: { vapi: RouteCredentials; retell: RouteCredentials; twilio: RouteCredentials }, callId: number): SignedVendorRequest[] {
  return [
    vapiEndRequest(creds.vapi, callId),
    retellEndRequest(creds.retell, callId, 'call_ended'),
    retellEndRequest(creds.retell, callId, 'call_analyzed'),
    ...twilioRequests(publicBaseUrl, creds.twilio, callId),
  ];
}

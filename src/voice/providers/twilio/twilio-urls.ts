import type { Route } from '../../registry.ts';

/**
 * Where Twilio reaches this service for one call. Twilio echoes no metadata of ours, so our call
 * id rides in every URL (`call=`), with the voice connection whose auth token signs the requests
 * (`connection=`). Twilio signs the exact URL it was given: these are built once per call and
 * verified against PUBLIC_BASE_URL + the request's path and query.
 */
export interface TwilioCallUrls {
  /** The TwiML of the call (Url): the ConversationRelay connect. */
  twiml: string;
  /** Status and recording callbacks: the events route every vendor posts to. */
  events: string;
  /** The answering-machine result (AsyncAmdStatusCallback). */
  amd: string;
  /** Where Twilio goes when the relay session ends (<Connect action>): a transfer or a hang-up. */
  action: string;
  /** The ConversationRelay WebSocket (ws:// or wss://). */
  relay: string;
  /** The Media Stream WebSocket a listener's audio comes from (ws:// or wss://). */
  media: string;
}

export const TWILIO_PATH = '/api/v1/voice/twilio';

export function twilioCallUrls(publicBaseUrl: string, route: Route, callId: number | null): TwilioCallUrls {
  const base = publicBaseUrl.replace(/\/+$/, '') + TWILIO_PATH;
  const query = new URLSearchParams();
  if (callId !== null) query.set('call', String(callId));
  if (route.connectionId !== null) query.set('connection', String(route.connectionId));
  const q = query.size > 0 ? `?${query}` : '';
  return {
    twiml: `${base}/twiml${q}`,
    events: `${base}/events${q}`,
    amd: `${base}/amd${q}`,
    action: `${base}/action${q}`,
    relay: `${base.replace(/^http/, 'ws')}/relay${q}`,
    media: `${base.replace(/^http/, 'ws')}/media${q}`,
  };
}

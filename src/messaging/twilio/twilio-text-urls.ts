import type { TextChannelName } from '../../db/tables/messaging.ts';

/**
 * Where Twilio Messaging reaches this service. Twilio echoes no metadata of ours, so the route
 * whose auth token signs the request rides in the path (`env`: the service's TWILIO_AUTH_TOKEN;
 * `c12`: voice connection 12's), and so does our message id on a status callback (a send whose
 * answer was lost is adopted by it). Twilio signs the exact URL it was given: the routes verify
 * against PUBLIC_BASE_URL + the request's path.
 */
export const TWILIO_TEXT_PATH = '/api/v1/messaging/twilio';

export const textRouteParam = (connectionId: number | null) => (connectionId === null ? 'env' : `c${connectionId}`);

/** The route a path segment names: null for the service's settings, a connection id, or undefined when it names none. */
export function parseTextRouteParam(param: string): { connectionId: number | null } | undefined {
  if (param === 'env') return { connectionId: null };
  const m = /^c([1-9]\d{0,15})$/.exec(param);
  const id = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(id) ? { connectionId: id } : undefined;
}

export function twilioTextUrls(publicBaseUrl: string, connectionId: number | null) {
  const base = `${publicBaseUrl.replace(/\/+$/, '')}${TWILIO_TEXT_PATH}`;
  const route = textRouteParam(connectionId);
  return {
    /** A message's StatusCallback. */
    status: (messageId: number) => `${base}/status/${route}/${messageId}`,
    /** The numbers' "A message comes in" webhook (set on the number or the Messaging Service). */
    inbound: `${base}/inbound/${route}`,
  };
}

/** Twilio addresses WhatsApp as `whatsapp:+1…`; SMS numbers go bare. */
export const withChannel = (channel: TextChannelName, number: string) => (channel === 'whatsapp' ? `whatsapp:${number}` : number);

/** A number as Twilio gives it, its channel and the bare E.164. */
export function channelOf(address: string): { channel: TextChannelName; number: string } {
  return address.startsWith('whatsapp:') ? { channel: 'whatsapp', number: address.slice('whatsapp:'.length) } : { channel: 'sms', number: address };
}

import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How Vapi authenticates what it posts to a server URL. Two schemes, either accepted:
 * - the server secret sent as is in `x-vapi-secret` (the phone number's / org's `serverUrlSecret`,
 *   or the `server.headers` we put on each call: see vapi-requests.ts);
 * - an HMAC credential: `x-signature` = hex HMAC-SHA256(secret, `${x-timestamp}.${raw body}`), the
 *   timestamp binding the body to a moment so an old capture cannot be replayed.
 */
export const VAPI_SECRET_HEADER = 'x-vapi-secret';
export const VAPI_SIGNATURE_HEADER = 'x-signature';
export const VAPI_TIMESTAMP_HEADER = 'x-timestamp';
export const VAPI_SIGNATURE_TOLERANCE_MS = 5 * 60_000;

type Headers = Record<string, string | string[] | undefined>;

const first = (headers: Headers, name: string): string | undefined => {
  const v = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Vapi's timestamps are Unix milliseconds in its messages; a header in seconds is accepted too. */
function timestampMs(value: string): number | null {
  if (!/^\d{1,16}$/.test(value)) return null;
  const n = Number(value);
  return n < 1e12 ? n * 1000 : n;
}

export function vapiHmac(secret: string, timestamp: string, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

/** The headers of a signed delivery (what the fake sends in `signing: 'hmac'` mode). */
export function signVapiBody(secret: string, rawBody: string, now: Date): Record<string, string> {
  const timestamp = String(now.getTime());
  return { [VAPI_TIMESTAMP_HEADER]: timestamp, [VAPI_SIGNATURE_HEADER]: vapiHmac(secret, timestamp, rawBody) };
}

export function verifyVapiRequest(input: { secret: string | null; headers: Headers; rawBody: string; now: Date }): boolean {
  const { secret, headers } = input;
  if (!secret) return false;
  const plain = first(headers, VAPI_SECRET_HEADER);
  if (plain !== undefined) return sameText(plain, secret);
  const signature = first(headers, VAPI_SIGNATURE_HEADER);
  const timestamp = first(headers, VAPI_TIMESTAMP_HEADER);
  if (!signature || !timestamp || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  const at = timestampMs(timestamp);
  if (at === null || Math.abs(input.now.getTime() - at) > VAPI_SIGNATURE_TOLERANCE_MS) return false;
  return timingSafeEqual(Buffer.from(vapiHmac(secret, timestamp, input.rawBody), 'hex'), Buffer.from(signature, 'hex'));
}

import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Twilio's request signature (X-Twilio-Signature): base64 HMAC-SHA1, keyed with the account's
 * auth token, of the full URL Twilio requested followed by every form parameter, sorted by name,
 * as name + value (a repeated name once per value, values sorted). A WebSocket handshake and a
 * GET are signed over the URL alone. The same algorithm as the twilio package's
 * getExpectedTwilioSignature; the fakes sign with that one, so a drift fails the tests.
 *
 * The form is read once and sorted once as (name, value) pairs, then fed to the HMAC piece by
 * piece: n log n in the number of parameters. Reading it with getAll per name cost n² (each
 * getAll walks the whole list): a forged 100,000-parameter form held the event loop for 128 s.
 * The routes also cap a form's size and parameter count before any signature is computed
 * (http/raw-body.ts).
 */
export function twilioSignature(authToken: string, url: string, params: URLSearchParams = new URLSearchParams()): string {
  const pairs = [...params];
  // UTF-16 code-unit order, as Array.prototype.sort's default compares (and Twilio's library sorts).
  pairs.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  const hmac = createHmac('sha1', authToken).update(url, 'utf8');
  for (const [name, value] of pairs) hmac.update(name, 'utf8').update(value, 'utf8');
  return hmac.digest('base64');
}

export function verifyTwilioSignature(authToken: string, signature: string | string[] | undefined, url: string, params?: URLSearchParams): boolean {
  if (typeof signature !== 'string' || signature.length === 0 || signature.length > 200) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

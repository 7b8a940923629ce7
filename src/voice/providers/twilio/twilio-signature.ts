import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Twilio's request signature (X-Twilio-Signature): base64 HMAC-SHA1, keyed with the account's
 * auth token, of the full URL Twilio requested followed by every form parameter, sorted by name,
 * as name + value (a repeated name once per value, values sorted). A WebSocket handshake and a
 * GET are signed over the URL alone. The same algorithm as the twilio package's
 * getExpectedTwilioSignature; the fakes sign with that one, so a drift fails the tests.
 */
export function twilioSignature(authToken: string, url: string, params: URLSearchParams = new URLSearchParams()): string {
  let data = url;
  for (const name of [...new Set(params.keys())].sort()) {
    for (const value of params.getAll(name).sort()) data += name + value;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

export function verifyTwilioSignature(authToken: string, signature: string | string[] | undefined, url: string, params?: URLSearchParams): boolean {
  if (typeof signature !== 'string' || signature.length === 0 || signature.length > 200) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Retell's webhook signature, as retell-sdk's lib/webhook_auth signs and verifies it:
 * header `x-retell-signature: v=<unix MILLISECONDS>,d=<hex HMAC-SHA256(apiKey, body + timestamp)>`
 * (the timestamp appended to the raw body, no separator), accepted within 5 minutes of now.
 * Re-implemented with node:crypto because the SDK's verify is async (WebCrypto) and the
 * provider interface verifies synchronously; a test checks both agree.
 */
export const RETELL_SIGNATURE_HEADER = 'x-retell-signature';
export const RETELL_SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

export function signRetell(apiKey: string, body: string, now: Date): string {
  const t = now.getTime();
  return `v=${t},d=${createHmac('sha256', apiKey).update(body + t).digest('hex')}`;
}

export function verifyRetell(apiKey: string, body: string, header: string | undefined, now: Date): boolean {
  const match = header ? /^v=(\d+),d=([0-9a-f]{64})$/i.exec(header) : null;
  if (!match) return false;
  const t = Number(match[1]);
  if (!Number.isSafeInteger(t) || Math.abs(now.getTime() - t) > RETELL_SIGNATURE_TOLERANCE_MS) return false;
  const expected = createHmac('sha256', apiKey).update(body + match[1]).digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
}

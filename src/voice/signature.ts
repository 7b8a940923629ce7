import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Event signature: header `x-voice-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`.
 * The timestamp binds the body to a moment so an old capture cannot be replayed
 * beyond the tolerance (and replays within it are de-duplicated by event id).
 */
export const SIGNATURE_HEADER = 'x-voice-signature';
const TOLERANCE_SECONDS = 300;

export function signBody(secret: string, body: string, now: Date): string {
  const t = Math.floor(now.getTime() / 1000);
  const mac = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${mac}`;
}

export function verifySignature(secret: string, body: string, header: string | undefined, now: Date): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isFinite(t) || !parts.v1 || !/^[0-9a-f]{64}$/.test(parts.v1)) return false;
  if (Math.abs(now.getTime() / 1000 - t) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(parts.v1, 'hex'));
}

/** VOICE_WEBHOOK_SECRET, else one derived from SECRET_KEY so a fresh install needs no extra setting. */
export function webhookSecret(config: { VOICE_WEBHOOK_SECRET?: string | undefined; SECRET_KEY: string }): string {
  return config.VOICE_WEBHOOK_SECRET ?? createHmac('sha256', config.SECRET_KEY).update('voice-events').digest('hex');
}

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets the service must read back (the credentials and signing secrets of outgoing
 * webhooks) cannot be hashed, so they are sealed: AES-256-GCM under a key derived from
 * SECRET_KEY. A database dump alone no longer gives away a customer's CRM credentials.
 * Stored form: `sealed:v1:` + base64url(iv ‖ tag ‖ ciphertext). A value without the
 * prefix was stored before sealing and is read as it is (start-up seals it).
 */
export interface SecretBox {
  seal(plain: string): string;
  seal(plain: string | null): string | null;
  open(stored: string): string;
  open(stored: string | null): string | null;
}

export class SecretBoxError extends Error {}

export const SEALED_PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function createSecretBox(secretKey: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secretKey, 'voice-campaigns', 'stored secrets v1', 32));
  function seal(plain: string | null): string | null {
    if (plain === null) return null;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }
  function open(stored: string | null): string | null {
    if (stored === null || !stored.startsWith(SEALED_PREFIX)) return stored;
    const raw = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64url');
    try {
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('too short');
      // A fixed tag length: GCM would otherwise accept a tag cut down to 4 bytes.
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('a stored secret cannot be opened: SECRET_KEY is not the key it was sealed with');
    }
  }
  return { seal, open } as SecretBox;
}

import { describe, expect, it } from 'vitest';
import { createSecretBox, SecretBoxError } from './secret-box.ts';

const box = createSecretBox('a-secret-key-that-is-long-enough-0123456789');

describe('secret box', () => {
  it('seals to a prefixed form that hides the secret and opens it again; each seal differs', () => {
    const a = box.seal('Bearer crm-token-ü-✓');
    const b = box.seal('Bearer crm-token-ü-✓');
    expect(a).toMatch(/^sealed:v1:[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('crm-token');
    expect(a).not.toBe(b);
    expect(box.open(a)).toBe('Bearer crm-token-ü-✓');
    expect(box.open(b)).toBe('Bearer crm-token-ü-✓');
    expect(box.seal(null)).toBeNull();
    expect(box.open(null)).toBeNull();
  });

  it('reads a value stored before sealing as it is', () => {
    expect(box.open('plain-old-token')).toBe('plain-old-token');
  });

  it('refuses a tampered value or one sealed under another key', () => {
    const sealed = box.seal('secret');
    const raw = Buffer.from(sealed.slice('sealed:v1:'.length), 'base64url');
    for (const at of [0, 12, 28, raw.length - 1]) { // in the IV, the tag and the ciphertext
      const tampered = Buffer.from(raw);
      tampered[at]! ^= 0x01;
      expect(() => box.open(`sealed:v1:${tampered.toString('base64url')}`)).toThrow(SecretBoxError);
    }
    // A shortened tag (GCM would accept 4 bytes) or a value too short to hold one.
    const shortTag = Buffer.concat([raw.subarray(0, 16), raw.subarray(28)]);
    expect(() => box.open(`sealed:v1:${shortTag.toString('base64url')}`)).toThrow(SecretBoxError);
    expect(() => box.open('sealed:v1:AAAA')).toThrow(SecretBoxError);
    expect(() => createSecretBox('another-key-that-is-long-enough-000000000').open(sealed)).toThrow(SecretBoxError);
  });
});

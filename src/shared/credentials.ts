import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** Passwords are low-entropy: argon2id with the library's recommended cost. */
export const hashPassword = (password: string) => hash(password);
export const verifyPassword = async (hashed: string, password: string) => {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
};

/**
 * Generated tokens (API keys, integration tokens) carry 256 random bits, so a fast
 * SHA-256 digest is as safe as a slow hash and allows an indexed lookup per request.
 */
export function generateToken(prefix: string): { token: string; hash: string; displayPrefix: string } {
  const token = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { token, hash: digestToken(token), displayPrefix: token.slice(0, prefix.length + 5) };
}

export const digestToken = (token: string) => createHash('sha256').update(token).digest('hex');

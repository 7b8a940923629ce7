import { SignJWT, jwtVerify } from 'jose';

/**
 * Login tokens: HS256 JWTs whose subject names the account (`u:1`) or sub-user (`s:7`), with
 * `born`, the creation time (ms) of the account or sub-user they were issued to. A token
 * names one row, not one id: an account deleted and created again under the same id has a
 * new creation time, so the old account's tokens no longer match. A token without `exp` or
 * `born` is refused. `cv` is the login's credential_version when the token was issued (migration
 * 0022): a password change or a deactivation raises it, which ends the token for good. A token
 * without `cv` was issued before versions existed and counts as version 0.
 */
export interface TokenClaims {
  subject: string;
  born: number;
  version: number;
}

export interface AccessTokenService {
  issue(subject: string, bornAt: Date, credentialVersion?: number): Promise<string>;
  verify(token: string): Promise<TokenClaims | null>;
}

export function createAccessTokenService(secret: string, expireMinutes: number): AccessTokenService {
  const key = new TextEncoder().encode(secret);
  return {
    issue: (subject, bornAt, credentialVersion = 0) =>
      new SignJWT({ born: bornAt.getTime(), cv: credentialVersion })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime(`${expireMinutes}m`)
        .sign(key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });
        const born = payload.born;
        const version = payload.cv ?? 0;
        if (typeof payload.sub !== 'string' || typeof born !== 'number' || !Number.isSafeInteger(born)) return null;
        if (typeof version !== 'number' || !Number.isSafeInteger(version)) return null;
        return { subject: payload.sub, born, version };
      } catch {
        return null;
      }
    },
  };
}

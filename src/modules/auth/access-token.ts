import { SignJWT, jwtVerify } from 'jose';

/** Login tokens: HS256 JWTs whose subject names the account (`u:1`) or sub-user (`s:7`). */
export interface AccessTokenService {
  issue(subject: string): Promise<string>;
  verify(token: string): Promise<string | null>;
}

export function createAccessTokenService(secret: string, expireMinutes: number): AccessTokenService {
  const key = new TextEncoder().encode(secret);
  return {
    issue: (subject) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime(`${expireMinutes}m`)
        .sign(key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        return typeof payload.sub === 'string' ? payload.sub : null;
      } catch {
        return null;
      }
    },
  };
}

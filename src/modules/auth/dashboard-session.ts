import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../http/errors.ts';

/**
 * The dashboard's credential: a cookie the browser sends and JavaScript cannot read (HttpOnly),
 * never sent on a cross-site request (SameSite=Strict), Secure when the request came over HTTPS.
 * Its value is 32 random bytes; the database keeps only their digest (dashboard_sessions).
 *
 * A cookie is sent by the browser whoever wrote the page, so a request it authenticates and
 * that changes something must also carry `X-Requested-With: voice-campaigns`: a cross-site
 * form cannot set a header, and a cross-site fetch that sets one needs a CORS preflight this
 * service never grants. SameSite=Strict already keeps the cookie off cross-site requests; the
 * header covers browsers and same-site neighbours (another app on a sibling subdomain) where it
 * does not.
 */

export const SESSION_COOKIE = 'vc_session';
export const CSRF_HEADER = 'X-Requested-With';
export const CSRF_HEADER_VALUE = 'voice-campaigns';
export const CSRF_REFUSAL = `A request made with the dashboard session cookie that changes something must carry the header ${CSRF_HEADER}: ${CSRF_HEADER_VALUE}`;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// base64url of 32 bytes: anything else in the cookie is no token of ours and is not looked up.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const newSessionToken = () => randomBytes(32).toString('base64url');

/** The session token of a `Cookie` header, or undefined when it has none (or a malformed one). */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const at = pair.indexOf('=');
    if (at === -1 || pair.slice(0, at).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(at + 1).trim();
    if (TOKEN_SHAPE.test(value)) return value;
  }
  return undefined;
}

/** The Set-Cookie value that starts a session, or (maxAgeSeconds 0, no token) ends it. */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return [`${SESSION_COOKIE}=${token}`, 'HttpOnly', 'SameSite=Strict', 'Path=/', `Max-Age=${maxAgeSeconds}`, ...(secure ? ['Secure'] : [])].join('; ');
}

export const clearedSessionCookie = (secure: boolean) => sessionCookie('', 0, secure);

/** Over HTTPS, as the client saw it (request.protocol honours TRUST_PROXY's X-Forwarded-Proto). */
export const cameOverHttps = (request: FastifyRequest) => request.protocol === 'https';

/** 403 for a state-changing request without the header a cross-site form cannot send. */
export function requireCsrfHeader(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  const value = request.headers[CSRF_HEADER.toLowerCase()];
  if (value !== CSRF_HEADER_VALUE) throw new HttpError(403, CSRF_REFUSAL);
}

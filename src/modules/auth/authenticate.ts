import { unauthorized } from '../../http/errors.ts';
import { digestToken } from '../../shared/credentials.ts';
import type { AccessTokenService } from './access-token.ts';
import type { AuthRepository } from './auth.repository.ts';
import type { Principal } from './principal.ts';

// last_used_at is informative; writing it on every request would double the cost of a read.
const TOUCH_INTERVAL_MS = 60_000;

/** Which credential a request is authenticated by, in the order they are tried. */
export type CredentialKind = 'api_key' | 'bearer' | 'session';

/**
 * The credential a request presents: `X-API-Key`, else `Authorization` (a bearer token), else
 * the dashboard session cookie. Only the first present one is checked: a bad API key beside a
 * good cookie is a 401.
 */
export function credentialKind(input: { apiKey: string | undefined; authorization: string | undefined; sessionToken: string | undefined }): CredentialKind | null {
  if (input.apiKey) return 'api_key';
  if (input.authorization) return 'bearer';
  if (input.sessionToken) return 'session';
  return null;
}

/**
 * Resolves the caller from `X-API-Key`, `Authorization: Bearer <jwt>` or the dashboard session
 * cookie's token. Every request re-checks the database, so a deleted key, a deactivated account
 * or an ended session fails on the next call.
 */
export async function authenticate(input: {
  apiKey: string | undefined;
  authorization: string | undefined;
  /** The token of the dashboard session cookie (dashboard-session.ts), if any. */
  sessionToken?: string | undefined;
  repo: AuthRepository;
  tokens: AccessTokenService;
  now?: Date;
}): Promise<Principal> {
  const { apiKey, authorization, sessionToken, repo, tokens, now = new Date() } = input;
  if (credentialKind({ apiKey, authorization, sessionToken }) === 'session' && sessionToken) return sessionPrincipal(sessionToken, repo, now);
  if (apiKey) {
    const key = await repo.findApiKey(digestToken(apiKey));
    if (!key) throw unauthorized('Invalid API key');
    if (!key.last_used_at || now.getTime() - key.last_used_at.getTime() > TOUCH_INTERVAL_MS) await repo.touchApiKey(key.id);
    return { kind: 'user', userId: key.owner_id, ownerId: key.owner_id, isSuperuser: key.is_superuser, apiKey: { id: key.id, name: key.name } };
  }
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match?.[1]) throw unauthorized();
  const claims = await tokens.verify(match[1]);
  const [kind, rawId] = claims?.subject.split(':') ?? [];
  const id = Number(rawId);
  // The token must name the row it was issued to (see access-token.ts), not only its id, and be
  // issued under its current credential version (no password change or deactivation since).
  const sameRow = (row: { created_at: Date; credential_version: number }) =>
    row.created_at.getTime() === claims?.born && row.credential_version === claims.version;
  if (kind === 'u' && Number.isSafeInteger(id)) {
    const user = await repo.findActiveUser(id);
    if (user && sameRow(user)) return { kind: 'user', userId: user.id, ownerId: user.id, isSuperuser: user.is_superuser };
  } else if (kind === 's' && Number.isSafeInteger(id)) {
    const sub = await repo.findActiveSubUser(id);
    if (sub && sameRow(sub)) return { kind: 'sub_user', subUserId: sub.id, ownerId: sub.owner_id };
  }
  throw unauthorized('Could not validate credentials');
}

async function sessionPrincipal(token: string, repo: AuthRepository, now: Date): Promise<Principal> {
  const session = await repo.findSession(digestToken(token));
  if (!session) throw unauthorized('Session expired or signed out');
  if (now.getTime() - session.last_seen_at.getTime() > TOUCH_INTERVAL_MS) await repo.touchSession(session.id);
  if (session.user_id !== null) return { kind: 'user', userId: session.user_id, ownerId: session.user_id, isSuperuser: session.is_superuser === true };
  return { kind: 'sub_user', subUserId: session.sub_user_id!, ownerId: session.owner_id! };
}

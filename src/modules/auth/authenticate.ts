import { unauthorized } from '../../http/errors.ts';
import { digestToken } from '../../shared/credentials.ts';
import type { AccessTokenService } from './access-token.ts';
import type { AuthRepository } from './auth.repository.ts';
import type { Principal } from './principal.ts';

// last_used_at is informative; writing it on every request would double the cost of a read.
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Resolves the caller from `X-API-Key` or `Authorization: Bearer <jwt>`. Every request
 * re-checks the database, so a deleted key or deactivated account fails on the next call.
 */
export async function authenticate(input: {
  apiKey: string | undefined;
  authorization: string | undefined;
  repo: AuthRepository;
  tokens: AccessTokenService;
  now?: Date;
}): Promise<Principal> {
  const { apiKey, authorization, repo, tokens, now = new Date() } = input;
  if (apiKey) {
    const key = await repo.findApiKey(digestToken(apiKey));
    if (!key) throw unauthorized('Invalid API key');
    if (!key.last_used_at || now.getTime() - key.last_used_at.getTime() > TOUCH_INTERVAL_MS) await repo.touchApiKey(key.id);
    return { kind: 'user', userId: key.owner_id, ownerId: key.owner_id, isSuperuser: key.is_superuser };
  }
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match?.[1]) throw unauthorized();
  const claims = await tokens.verify(match[1]);
  const [kind, rawId] = claims?.subject.split(':') ?? [];
  const id = Number(rawId);
  // The token must name the row it was issued to (see access-token.ts), not only its id.
  const sameRow = (row: { created_at: Date }) => row.created_at.getTime() === claims?.born;
  if (kind === 'u' && Number.isSafeInteger(id)) {
    const user = await repo.findActiveUser(id);
    if (user && sameRow(user)) return { kind: 'user', userId: user.id, ownerId: user.id, isSuperuser: user.is_superuser };
  } else if (kind === 's' && Number.isSafeInteger(id)) {
    const sub = await repo.findActiveSubUser(id);
    if (sub && sameRow(sub)) return { kind: 'sub_user', subUserId: sub.id, ownerId: sub.owner_id };
  }
  throw unauthorized('Could not validate credentials');
}

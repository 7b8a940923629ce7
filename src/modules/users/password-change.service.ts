import type { Db } from '../../db/connection.ts';
import { notFound, unprocessable } from '../../http/errors.ts';
import { hashPassword, verifyPassword } from '../../shared/credentials.ts';
import { revokeCredentials } from '../auth/credential-revocation.ts';
import { settleLoginAttempt, takeLoginAttempt } from '../auth/login-throttle.ts';
import type { Principal } from '../auth/principal.ts';
import { startSession } from '../auth/session.service.ts';
import { findLoginSecret, setLoginPassword } from './users.repository.ts';

export const WRONG_CURRENT_PASSWORD = 'This is not your current password; nothing was changed';

export interface PasswordChange {
  db: Db;
  principal: Principal;
  current_password: string;
  new_password: string;
  /** The client's address: a wrong current password counts as a failed login (the login throttle, 429). */
  address: string;
  maxFailures: number;
  now: Date;
  /** Whether the request came with the dashboard session cookie: that browser gets a fresh session. */
  bySession: boolean;
  lifetimeSeconds: number;
}

/**
 * The caller changes its own password (an account, or a sub-user: the login the credential names).
 * Every session and bearer token of the login ends (credential_version, as a new password set by
 * an owner does); a browser that asked gets a fresh session under the new version instead of its
 * old one, so it stays signed in with a token nobody else has seen. API keys belong to the account,
 * not to a login, and stay. A wrong current password is a 422 on that field and changes nothing.
 */
export async function changePassword(input: PasswordChange): Promise<{ session: { token: string } | null }> {
  const login = input.principal.kind === 'user' ? { kind: 'user' as const, id: input.principal.userId } : { kind: 'sub_user' as const, id: input.principal.subUserId };
  // The throttle's key for this login, as the sign-in counts it, so guesses here and there add up.
  const counted = `${login.kind === 'user' ? 'u' : 's'}:${login.id}`;
  await takeLoginAttempt(input.db, counted, input.address, input.maxFailures, input.now);
  const stored = await findLoginSecret(input.db, login);
  if (!stored) throw notFound('Login');
  if (!(await verifyPassword(stored.hashed_password, input.current_password))) {
    await settleLoginAttempt(input.db, counted, input.address, input.maxFailures, 'wrong');
    throw unprocessable(['body', 'current_password'], WRONG_CURRENT_PASSWORD);
  }
  await settleLoginAttempt(input.db, counted, input.address, input.maxFailures, 'success');
  const hashed = await hashPassword(input.new_password);
  return input.db.transaction().execute(async (trx) => {
    await setLoginPassword(trx, login, hashed);
    const credential_version = await revokeCredentials(trx, login);
    if (!input.bySession) return { session: null };
    const { token } = await startSession(trx, { ...login, created_at: stored.created_at, credential_version }, input.lifetimeSeconds);
    return { session: { token } };
  });
}

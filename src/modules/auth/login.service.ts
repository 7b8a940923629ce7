import type { Db } from '../../db/connection.ts';
import { badRequest } from '../../http/errors.ts';
import { hashPassword, verifyPassword } from '../../shared/credentials.ts';
import type { AccessTokenService } from './access-token.ts';
import { settleLoginAttempt, takeLoginAttempt } from './login-throttle.ts';
import { findLoginCredentials } from '../users/users.repository.ts';

interface PasswordCheck {
  username: string;
  password: string;
  db: Db;
  /** The client's address, for the failed-login throttle. */
  address: string;
  /** Failures allowed per name and address in the throttle's window; 0 = no throttle. */
  maxFailures: number;
  now: Date;
}

interface LoginInput extends PasswordCheck {
  tokens: AccessTokenService;
}

/** Who a name and password sign in as. */
export interface LoginSubject {
  kind: 'user' | 'sub_user';
  id: number;
  created_at: Date;
  /** Its credential_version now: the token or session issued for it holds only while this stays current. */
  credential_version: number;
}

/** Why a login was refused: the login answers it as 400, the dashboard session as 401. */
export type LoginRefusal = 'Incorrect email or password' | 'Inactive user';

/**
 * Accounts log in with their e-mail; sub-users with their username or e-mail. The
 * same answer for an unknown name and a wrong password, so names cannot be probed.
 * Throttled (429) by login-throttle.ts; the bearer token and the dashboard session both come here.
 */
export async function checkPassword(input: PasswordCheck): Promise<{ subject: LoginSubject } | { refused: LoginRefusal }> {
  const { password, db, address, maxFailures, now } = input;
  const name = input.username.trim().toLowerCase();
  const login = await findLogin(db, name);
  // Failures are counted per login, so a sub-user's username and e-mail share one count.
  const counted = login ? `${login.kind === 'user' ? 'u' : 's'}:${login.id}` : name;
  await takeLoginAttempt(db, counted, address, maxFailures, now);
  // An unknown name costs one argon2 verification like a known one: answering faster told
  // which e-mails have accounts (16 ms against 3 ms).
  if (!login) await verifyPassword(await decoyHash(), password);
  if (!login || !(await verifyPassword(login.hashed_password, password))) {
    await settleLoginAttempt(db, counted, address, maxFailures, 'wrong');
    return { refused: 'Incorrect email or password' };
  }
  // An inactive user gave the right password: not a failure.
  await settleLoginAttempt(db, counted, address, maxFailures, login.is_active ? 'success' : 'other');
  if (!login.is_active) return { refused: 'Inactive user' };
  return { subject: { kind: login.kind, id: login.id, created_at: login.created_at, credential_version: login.credential_version } };
}

/** POST /login/access-token: a bearer token for the name and password. */
export async function loginWithPassword(input: LoginInput): Promise<string> {
  const checked = await checkPassword(input);
  if ('refused' in checked) throw badRequest(checked.refused);
  const { kind, id, created_at, credential_version } = checked.subject;
  return input.tokens.issue(`${kind === 'user' ? 'u' : 's'}:${id}`, created_at, credential_version);
}

/** The account (by e-mail) or, failing that, the sub-user (by username or e-mail) a name logs in as. */
const findLogin = (db: Db, name: string): Promise<(LoginSubject & { hashed_password: string; is_active: boolean }) | undefined> => findLoginCredentials(db, name);

let decoy: Promise<string> | null = null;
const decoyHash = () => (decoy ??= hashPassword('decoy password, never matches a login'));

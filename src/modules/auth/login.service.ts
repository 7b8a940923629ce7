import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { badRequest } from '../../http/errors.ts';
import { hashPassword, verifyPassword } from '../../shared/credentials.ts';
import type { AccessTokenService } from './access-token.ts';
import { settleLoginAttempt, takeLoginAttempt } from './login-throttle.ts';

interface LoginInput {
  username: string;
  password: string;
  db: Db;
  tokens: AccessTokenService;
  /** The client's address, for the failed-login throttle. */
  address: string;
  /** Failures allowed per name and address in the throttle's window; 0 = no throttle. */
  maxFailures: number;
  now: Date;
}

/**
 * Accounts log in with their e-mail; sub-users with their username or e-mail. The
 * same answer for an unknown name and a wrong password, so names cannot be probed.
 */
export async function loginWithPassword(input: LoginInput): Promise<string> {
  const { password, db, tokens, address, maxFailures, now } = input;
  const name = input.username.trim().toLowerCase();
  const login = await findLogin(db, name);
  // Failures are counted per login, so a sub-user's username and e-mail share one count.
  const counted = login?.subject ?? name;
  await takeLoginAttempt(db, counted, address, maxFailures, now);
  // An unknown name costs one argon2 verification like a known one: answering faster told
  // which e-mails have accounts (16 ms against 3 ms).
  if (!login) await verifyPassword(await decoyHash(), password);
  if (!login || !(await verifyPassword(login.hashed_password, password))) {
    await settleLoginAttempt(db, counted, address, maxFailures, 'wrong');
    throw badRequest('Incorrect email or password');
  }
  // An inactive user gave the right password: not a failure.
  await settleLoginAttempt(db, counted, address, maxFailures, login.is_active ? 'success' : 'other');
  if (!login.is_active) throw badRequest('Inactive user');
  return tokens.issue(login.subject, login.created_at);
}

/** The account (by e-mail) or, failing that, the sub-user (by username or e-mail) a name logs in as. */
async function findLogin(db: Db, name: string): Promise<{ subject: string; hashed_password: string; is_active: boolean; created_at: Date } | undefined> {
  const user = await db.selectFrom('users').select(['id', 'hashed_password', 'is_active', 'created_at']).where(sql`lower(email)`, '=', name).executeTakeFirst();
  if (user) return { subject: `u:${user.id}`, hashed_password: user.hashed_password, is_active: user.is_active, created_at: user.created_at };
  const sub = await db
    .selectFrom('sub_users')
    .select(['id', 'hashed_password', 'is_active', 'created_at'])
    .where((eb) => eb.or([eb(sql`lower(username)`, '=', name), eb(sql`lower(email)`, '=', name)]))
    .executeTakeFirst();
  return sub ? { subject: `s:${sub.id}`, hashed_password: sub.hashed_password, is_active: sub.is_active, created_at: sub.created_at } : undefined;
}

let decoy: Promise<string> | null = null;
const decoyHash = () => (decoy ??= hashPassword('decoy password, never matches a login'));

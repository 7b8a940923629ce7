import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { badRequest, HttpError } from '../../shared/errors.ts';
import { hashPassword, verifyPassword } from '../../shared/secrets.ts';
import type { AccessTokenService } from './access-token.ts';
import { settleLoginAttempt, takeLoginAttempt } from './login-throttle.ts';

/**
 * Accounts log in with their e-mail; sub-users with their username or e-mail. The
 * same answer for an unknown name and a wrong password, so names cannot be probed.
 */
export async function loginWithPassword(input: LoginInput) {
  const { username, db, address, maxFailures, now } = input;
  const name = username.trim().toLowerCase();
  const counted = maxFailures > 0 ? await throttleName(db, name) : name;
  await takeLoginAttempt(db, counted, address, maxFailures, now);
  const checked = await checkPassword(name, input).then(
    (token) => ({ ok: true as const, token }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  // Settled once, outside the check. Only a wrong password stays counted: an inactive
  // user gave the right one.
  const wrong = !checked.ok && checked.error instanceof HttpError && checked.error.detail === WRONG_CREDENTIALS;
  await settleLoginAttempt(db, counted, address, maxFailures, checked.ok ? 'success' : wrong ? 'wrong' : 'other');
  if (!checked.ok) throw checked.error;
  return checked.token;
}

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

const WRONG_CREDENTIALS = 'Incorrect email or password';

/**
 * The name failures are counted under: a sub-user logs in by username or e-mail, and both
 * must share one count (else it had twice the guesses). Accounts log in by e-mail only.
 */
async function throttleName(db: Db, name: string): Promise<string> {
  const sub = await db
    .selectFrom('sub_users')
    .select('id')
    .where((eb) => eb.or([eb(sql`lower(username)`, '=', name), eb(sql`lower(email)`, '=', name)]))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('users').select('id').where(sql`lower(email)`, '=', name))))
    .executeTakeFirst();
  return sub ? `sub-user:${sub.id}` : name;
}

async function checkPassword(name: string, { password, db, tokens }: LoginInput): Promise<string> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'hashed_password', 'is_active'])
    .where(sql`lower(email)`, '=', name)
    .executeTakeFirst();
  let known = user !== undefined;
  if (user && (await verifyPassword(user.hashed_password, password))) {
    if (!user.is_active) throw badRequest('Inactive user');
    return tokens.issue(`u:${user.id}`);
  }
  if (!user) {
    const sub = await db
      .selectFrom('sub_users')
      .select(['id', 'hashed_password', 'is_active'])
      .where((eb) => eb.or([eb(sql`lower(username)`, '=', name), eb(sql`lower(email)`, '=', name)]))
      .executeTakeFirst();
    known = sub !== undefined;
    if (sub && (await verifyPassword(sub.hashed_password, password))) {
      if (!sub.is_active) throw badRequest('Inactive user');
      return tokens.issue(`s:${sub.id}`);
    }
  }
  // An unknown name costs one argon2 verification like a known one: answering faster told
  // which e-mails have accounts (16 ms against 3 ms).
  if (!known) await verifyPassword(await decoyHash(), password);
  throw badRequest(WRONG_CREDENTIALS);
}

let decoy: Promise<string> | null = null;
const decoyHash = () => (decoy ??= hashPassword('decoy password, never matches a login'));

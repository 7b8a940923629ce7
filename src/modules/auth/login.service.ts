import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { badRequest } from '../../shared/errors.ts';
import { hashPassword, verifyPassword } from '../../shared/secrets.ts';
import type { AccessTokenService } from './access-token.ts';

/**
 * Accounts log in with their e-mail; sub-users with their username or e-mail. The
 * same answer for an unknown name and a wrong password, so names cannot be probed.
 */
export async function loginWithPassword(input: { username: string; password: string; db: Db; tokens: AccessTokenService }) {
  const { username, password, db, tokens } = input;
  const name = username.trim().toLowerCase();
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
  throw badRequest('Incorrect email or password');
}

let decoy: Promise<string> | null = null;
const decoyHash = () => (decoy ??= hashPassword('decoy password, never matches a login'));

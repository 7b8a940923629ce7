import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { hashPassword } from '../../shared/credentials.ts';
import type { Principal } from '../auth/principal.ts';

export interface NewUserInput {
  email: string;
  password: string;
  full_name?: string | null | undefined;
  is_superuser?: boolean | undefined;
  is_active?: boolean | undefined;
}

const userColumns = ['id', 'email', 'full_name', 'is_superuser', 'is_active', 'created_at'] as const;

export async function createUser(db: Db, input: NewUserInput) {
  const email = input.email.trim();
  const name = email.toLowerCase();
  const taken = await db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(email)`, '=', name)
    .executeTakeFirst();
  if (taken) throw conflict('A user with this email already exists');
  // Login tries accounts first: an account named like a sub-user would lock that sub-user out.
  const subUser = await db
    .selectFrom('sub_users')
    .select('id')
    .where((eb) => eb.or([eb(sql`lower(username)`, '=', name), eb(sql`lower(email)`, '=', name)]))
    .executeTakeFirst();
  if (subUser) throw conflict('This email is already used as a sub-user login');
  try {
    return await db
      .insertInto('users')
      .values({
        email,
        hashed_password: await hashPassword(input.password),
        full_name: input.full_name ?? null,
        is_superuser: input.is_superuser ?? false,
        is_active: input.is_active ?? true,
      })
      .returning(userColumns)
      .executeTakeFirstOrThrow();
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw conflict('A user with this email already exists');
    throw error;
  }
}

/** A new account through the API: only a superuser may create one (403 otherwise). */
export async function createAccount(db: Db, principal: Principal, input: NewUserInput) {
  if (principal.kind !== 'user' || !principal.isSuperuser) throw forbidden();
  return createUser(db, input);
}

/** GET /users/me: the calling account, or the calling sub-user with the account it belongs to. */
export async function describeCaller(db: Db, principal: Principal) {
  if (principal.kind === 'user') {
    const user = await findUserById(db, principal.userId);
    if (!user) throw notFound('User');
    return { ...user, kind: 'user' as const, owner_id: user.id };
  }
  const sub = await db
    .selectFrom('sub_users')
    .select(['id', 'email', 'full_name', 'is_active', 'username', 'owner_id'])
    .where('id', '=', principal.subUserId)
    .executeTakeFirstOrThrow();
  return { ...sub, is_superuser: false, kind: 'sub_user' as const };
}

export const findUserById = (db: Db, id: number) =>
  db.selectFrom('users').select(userColumns).where('id', '=', id).executeTakeFirst();

export const findUserByEmail = (db: Db, email: string) =>
  db.selectFrom('users').select(userColumns).where(sql`lower(email)`, '=', email.trim().toLowerCase()).executeTakeFirst();

/** FIRST_USER_EMAIL/FIRST_USER_PASSWORD: create that superuser at start when it does not exist. */
export async function ensureFirstSuperuser(db: Db, email: string | undefined, password: string | undefined) {
  if (!email || !password) return;
  if (await findUserByEmail(db, email)) return;
  try {
    await createUser(db, { email, password, is_superuser: true, full_name: 'Administrator' });
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 409) throw error; // another process made it first
  }
}

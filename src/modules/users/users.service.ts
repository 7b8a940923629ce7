import type { Db } from '../../db/connection.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { hashPassword } from '../../shared/credentials.ts';
import type { Principal } from '../auth/principal.ts';
import { findSubUserById, findSubUserByLogin, findUserByEmail, findUserById, insertUser } from './users.repository.ts';

export { findUserByEmail, findUserById } from './users.repository.ts';

export interface NewUserInput {
  email: string;
  password: string;
  full_name?: string | null | undefined;
  is_superuser?: boolean | undefined;
  is_active?: boolean | undefined;
}

export async function createUser(db: Db, input: NewUserInput) {
  const email = input.email.trim();
  const name = email.toLowerCase();
  if (await findUserByEmail(db, name)) throw conflict('A user with this email already exists');
  // Login tries accounts first: an account named like a sub-user would lock that sub-user out.
  if (await findSubUserByLogin(db, name)) throw conflict('This email is already used as a sub-user login');
  try {
    return await insertUser(db, {
      email,
      hashed_password: await hashPassword(input.password),
      full_name: input.full_name ?? null,
      is_superuser: input.is_superuser ?? false,
      is_active: input.is_active ?? true,
    });
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
  const sub = await findSubUserById(db, principal.subUserId);
  return { ...sub, is_superuser: false, kind: 'sub_user' as const };
}

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

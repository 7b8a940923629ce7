import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';

/** The columns of an account the API shows (never its password hash). */
export const userColumns = ['id', 'email', 'full_name', 'is_superuser', 'is_active', 'created_at'] as const;

export const findUserById = (db: Db, id: number) =>
  db.selectFrom('users').select(userColumns).where('id', '=', id).executeTakeFirst();

/** E-mails are unique whatever their case (the users_email_lower index). */
const userByEmail = (db: Db, email: string) => db.selectFrom('users').where(sql`lower(email)`, '=', email.trim().toLowerCase());

/** A sub-user whose username or e-mail is `login` (lower-case). */
const subUserByLogin = (db: Db, login: string) =>
  db.selectFrom('sub_users').where((eb) => eb.or([eb(sql`lower(username)`, '=', login), eb(sql`lower(email)`, '=', login)]));

export const findUserByEmail = (db: Db, email: string) => userByEmail(db, email).select(userColumns).executeTakeFirst();

export const findSubUserByLogin = (db: Db, login: string) => subUserByLogin(db, login).select('id').executeTakeFirst();

/** What a sign-in checks of a login, never shown. */
const credentialColumns = ['id', 'hashed_password', 'is_active', 'created_at', 'credential_version'] as const;

/** The account whose e-mail is `login` (lower-case) or, failing that, the sub-user whose username or e-mail it is, with its credentials. */
export async function findLoginCredentials(db: Db, login: string) {
  const user = await userByEmail(db, login).select(credentialColumns).executeTakeFirst();
  if (user) return { kind: 'user' as const, ...user };
  const sub = await subUserByLogin(db, login).select(credentialColumns).executeTakeFirst();
  return sub ? { kind: 'sub_user' as const, ...sub } : undefined;
}

export const findSubUserById = (db: Db, id: number) =>
  db.selectFrom('sub_users').select(['id', 'email', 'full_name', 'is_active', 'username', 'owner_id']).where('id', '=', id).executeTakeFirstOrThrow();

export const insertUser = (db: Db, row: { email: string; hashed_password: string; full_name: string | null; is_superuser: boolean; is_active: boolean }) =>
  db.insertInto('users').values(row).returning(userColumns).executeTakeFirstOrThrow();

type LoginRef = { kind: 'user' | 'sub_user'; id: number };
const loginTable = (login: LoginRef) => (login.kind === 'user' ? 'users' : 'sub_users');

/** The password hash and state of a login, for a password change. */
export const findLoginSecret = (db: Db, login: LoginRef) =>
  db.selectFrom(loginTable(login)).select(['hashed_password', 'created_at']).where('id', '=', login.id).executeTakeFirst();

/** Writes a login's new password hash; its sessions and tokens are ended beside it (credential-revocation.ts). */
export const setLoginPassword = (db: Db, login: LoginRef, hashedPassword: string) =>
  db.updateTable(loginTable(login)).set({ hashed_password: hashedPassword }).where('id', '=', login.id).execute();

import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';

/** The columns of an account the API shows (never its password hash). */
export const userColumns = ['id', 'email', 'full_name', 'is_superuser', 'is_active', 'created_at'] as const;

export const findUserById = (db: Db, id: number) =>
  db.selectFrom('users').select(userColumns).where('id', '=', id).executeTakeFirst();

/** E-mails are unique whatever their case (the users_email_lower index). */
export const findUserByEmail = (db: Db, email: string) =>
  db.selectFrom('users').select(userColumns).where(sql`lower(email)`, '=', email.trim().toLowerCase()).executeTakeFirst();

/** A sub-user whose username or e-mail is `login` (lower-case). */
export const findSubUserByLogin = (db: Db, login: string) =>
  db.selectFrom('sub_users').select('id')
    .where((eb) => eb.or([eb(sql`lower(username)`, '=', login), eb(sql`lower(email)`, '=', login)]))
    .executeTakeFirst();

export const findSubUserById = (db: Db, id: number) =>
  db.selectFrom('sub_users').select(['id', 'email', 'full_name', 'is_active', 'username', 'owner_id']).where('id', '=', id).executeTakeFirstOrThrow();

export const insertUser = (db: Db, row: { email: string; hashed_password: string; full_name: string | null; is_superuser: boolean; is_active: boolean }) =>
  db.insertInto('users').values(row).returning(userColumns).executeTakeFirstOrThrow();

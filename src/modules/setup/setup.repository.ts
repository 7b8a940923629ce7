import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { insertUser } from '../users/users.repository.ts';

/**
 * The first owner's SQL. Invariant: at most one account is ever created through setup, however
 * many browsers submit the form at once. Two transactions that each read "no account yet" under
 * READ COMMITTED would both insert (different e-mails never meet a unique index), so the check
 * and the insert run under one transaction-level advisory lock: the second waits for the first to
 * commit, then sees its account. The lock class is ours alone (7301 and 7302 are the dialer's).
 */
const FIRST_OWNER_LOCK_CLASS = 7_303;

/** Whether any account exists (one indexed probe, not a count). */
export async function anyAccountExists(db: Db): Promise<boolean> {
  const row = await db.selectFrom('users').select(sql<number>`1`.as('one')).limit(1).executeTakeFirst();
  return row !== undefined;
}

export interface FirstOwnerRow {
  email: string;
  hashed_password: string;
  full_name: string | null;
}

/** Inserts the first owner (a superuser, as FIRST_USER_* makes it), or nothing when an account exists. */
export async function insertFirstOwner(db: Db, row: FirstOwnerRow) {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${FIRST_OWNER_LOCK_CLASS}, 0)`.execute(trx);
    if (await anyAccountExists(trx)) return undefined;
    const user = await insertUser(trx, { ...row, is_superuser: true, is_active: true });
    const { credential_version } = await trx.selectFrom('users').select('credential_version').where('id', '=', user.id).executeTakeFirstOrThrow();
    return { ...user, credential_version };
  });
}

import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { LoginSubject } from './login.service.ts';

/**
 * Writes of dashboard_sessions. The per-request lookup is in auth.repository.ts with the other
 * credentials. Times are the database's (now()), as the lookup's expiry check is.
 */
export function createSessionRepository(db: Db) {
  return {
    async insert(row: { digest: string; subject: LoginSubject; lifetimeSeconds: number }) {
      await db
        .insertInto('dashboard_sessions')
        .values({
          token_digest: row.digest,
          user_id: row.subject.kind === 'user' ? row.subject.id : null,
          sub_user_id: row.subject.kind === 'sub_user' ? row.subject.id : null,
          credential_version: row.subject.credential_version,
          expires_at: sql<Date>`now() + make_interval(secs => ${row.lifetimeSeconds})`,
        })
        .execute();
    },
    deleteByDigest: (digest: string) => db.deleteFrom('dashboard_sessions').where('token_digest', '=', digest).execute(),
    /** Expired rows only take room: each sign-in clears them. */
    deleteExpired: () => db.deleteFrom('dashboard_sessions').where('expires_at', '<=', sql<Date>`now()`).execute(),
  };
}

import { sql } from 'kysely';
import type pg from 'pg';
import type { Db } from '../../db/connection.ts';

// Every authenticated request runs one of these lookups before its own work. On
// PostgreSQL they are named prepared statements, planned once per connection: that cut
// the credential check's share of a read by id (bench:api). Not on the embedded database,
// where all connections share one PGlite session and so would collide on the names.
const FIND_API_KEY = `SELECT k.id, k.name, k.owner_id, k.last_used_at, u.is_superuser
  FROM api_keys k JOIN users u ON u.id = k.owner_id
  WHERE k.key_hash = $1 AND u.is_active`;
const FIND_USER = 'SELECT id, is_superuser, created_at, credential_version FROM users WHERE id = $1 AND is_active';
const FIND_SUB_USER = `SELECT s.id, s.owner_id, s.created_at, s.credential_version FROM sub_users s JOIN users u ON u.id = s.owner_id
  WHERE s.id = $1 AND s.is_active AND u.is_active`;
// A dashboard session that has not expired, of an active account or an active sub-user of an
// active account (the same conditions as FIND_USER and FIND_SUB_USER), signed in under the
// login's current credential_version (a password change or deactivation since ends it for good).
const FIND_SESSION = `SELECT d.id, d.last_seen_at, d.user_id, d.sub_user_id, u.is_superuser, s.owner_id
  FROM dashboard_sessions d
  LEFT JOIN users u ON u.id = d.user_id AND u.is_active AND u.credential_version = d.credential_version
  LEFT JOIN sub_users s ON s.id = d.sub_user_id AND s.is_active AND s.credential_version = d.credential_version
  LEFT JOIN users o ON o.id = s.owner_id AND o.is_active
  WHERE d.token_digest = $1 AND d.expires_at > now() AND (u.id IS NOT NULL OR o.id IS NOT NULL)`;

/** Lookups that turn a credential into an active principal. */
export function createAuthRepository(db: Db, pool: pg.Pool, options: { prepared: boolean }) {
  async function first<T extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<T | undefined> {
    const result = await pool.query<T>(options.prepared ? { name, text, values } : { text, values });
    return result.rows[0];
  }
  return {
    findActiveUser: (id: number) => first<{ id: number; is_superuser: boolean; created_at: Date; credential_version: number }>('vc_auth_user', FIND_USER, [id]),
    findActiveSubUser: (id: number) => first<{ id: number; owner_id: number; created_at: Date; credential_version: number }>('vc_auth_sub_user', FIND_SUB_USER, [id]),
    findApiKey: (hash: string) =>
      first<{ id: number; name: string | null; owner_id: number; last_used_at: Date | null; is_superuser: boolean }>('vc_auth_api_key', FIND_API_KEY, [hash]),
    findSession: (digest: string) =>
      first<{ id: number; last_seen_at: Date; user_id: number | null; sub_user_id: number | null; is_superuser: boolean | null; owner_id: number | null }>(
        'vc_auth_session', FIND_SESSION, [digest]),
    touchSession: (id: number) =>
      db.updateTable('dashboard_sessions').set({ last_seen_at: sql<Date>`now()` }).where('id', '=', id).execute(),
    touchApiKey: (id: number) =>
      db.updateTable('api_keys').set({ last_used_at: sql<Date>`now()` }).where('id', '=', id).execute(),
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;

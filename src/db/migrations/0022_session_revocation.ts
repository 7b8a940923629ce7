import { sql, type Kysely } from 'kysely';

/**
 * Sessions that end for good. Each account and sub-user gets a credential_version, raised when its
 * password changes or it is deactivated. A login token carries the version it was issued under and a
 * dashboard session row records it; both are accepted only while it is still the current one, so a
 * new password or a deactivation ends every earlier token and session, and reactivating the login
 * does not bring them back (its version stays raised). Existing rows start at 0, as do tokens issued
 * before this migration (they carry no version): an upgrade signs nobody out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN credential_version integer NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE sub_users ADD COLUMN credential_version integer NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE dashboard_sessions ADD COLUMN credential_version integer NOT NULL DEFAULT 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE dashboard_sessions DROP COLUMN IF EXISTS credential_version`.execute(db);
  await sql`ALTER TABLE sub_users DROP COLUMN IF EXISTS credential_version`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN IF EXISTS credential_version`.execute(db);
}

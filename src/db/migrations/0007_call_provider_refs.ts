import { sql, type Kysely } from 'kysely';

/**
 * The provider's id of each started call, in its own narrow table. The dialer learns it
 * right after the provider accepts the call; writing it onto the call row rewrote that
 * wide row (a non-HOT update through a dozen indexes, the call-data trigram index among
 * them) once per call just for this. An insert here is a fraction of that. The call row
 * gets external_session_id and call_data.provider_call_id when the call ends (from the
 * end event, else from this table), and the API reads this table for calls in progress,
 * so external_session_id reads the same; only call_data of a call in progress no longer
 * carries provider_call_id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE call_provider_refs (
      call_id bigint PRIMARY KEY REFERENCES calls (id) ON DELETE CASCADE,
      provider_call_id text NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX call_provider_refs_provider_idx ON call_provider_refs (provider_call_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS call_provider_refs`.execute(db);
}

import { sql, type Kysely } from 'kysely';

/**
 * What a person watches as it happens (calls starting, ringing, answered, each transcript turn,
 * ended; campaigns paused and resumed): one row per event, written in the transaction of the change
 * it tells (or just after, for a vendor's progress messages, which change nothing stored), so an
 * event is told once and only when its change committed. The id orders the stream and is the SSE
 * event id a browser resumes from (Last-Event-ID), on any process. Rows are kept minutes, not
 * days (modules/live/live-events.repository.ts prunes them): the calls themselves are the record.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE live_events (
      id bigserial PRIMARY KEY,
      owner_id bigint NOT NULL,
      campaign_id bigint,
      call_id bigint,
      type text NOT NULL,
      data jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  // A browser's replay reads its account's events after its last id; a call's turns so far are read by call.
  await sql`CREATE INDEX live_events_owner_idx ON live_events (owner_id, id)`.execute(db);
  await sql`CREATE INDEX live_events_call_idx ON live_events (call_id, id) WHERE call_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS live_events`.execute(db);
}

import { sql, type Kysely } from 'kysely';

/**
 * Our own agent on Twilio. A Twilio voice connection names its account SID (the auth token is the
 * sealed api_key). agent_conversations holds what this service's agent heard and said on a call,
 * written as the conversation goes (every turn), so the call's end, which Twilio reports to any
 * process, finds it whichever process held the socket; with the outcome the agent marked, whether
 * a machine answered (answering-machine detection), a transfer the agent asked for, and whether the
 * person asked not to be called again (the agent's do_not_call tool).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE voice_connections ADD COLUMN account_sid text`.execute(db);
  await sql`
    CREATE TABLE agent_conversations (
      call_id bigint PRIMARY KEY REFERENCES calls(id) ON DELETE CASCADE,
      transcript jsonb NOT NULL DEFAULT '[]'::jsonb,
      action_status text,
      action_status_reason text,
      ended_by text,
      answered_by text,
      transfer_to text,
      opt_out boolean NOT NULL DEFAULT false,
      opened_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS agent_conversations`.execute(db);
  await sql`ALTER TABLE voice_connections DROP COLUMN IF EXISTS account_sid`.execute(db);
}

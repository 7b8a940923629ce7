import { sql, type Kysely } from 'kysely';

/**
 * Every call belongs to one route (a provider and the credentials it went through), and a
 * vendor event only touches calls of the route that verified it (route-scope.ts). Calls written
 * since 0013 record it (`calls.provider`, `calls.voice_connection_id`); older ones have no
 * provider. They were all placed with the environment's credentials (voice connections came with
 * 0013), so only the provider is backfilled, from what the call itself shows: the provider its
 * call_data names (inbound calls), else the provider whose events it received (voice_events; the
 * dialer's own 'dialer' entries say nothing). A call that shows neither keeps a null provider,
 * which reads as VOICE_PROVIDER with the environment's credentials, the one route such a call
 * could have taken.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    UPDATE calls k SET provider = coalesce(
      CASE WHEN k.call_data->>'provider' IN ('sim', 'vapi', 'retell', 'twilio') THEN k.call_data->>'provider' END,
      (SELECT e.provider FROM voice_events e
       WHERE e.call_id = k.id AND e.provider IN ('sim', 'vapi', 'retell', 'twilio')
       ORDER BY e.received_at LIMIT 1))
    WHERE k.provider IS NULL AND k.voice_connection_id IS NULL`.execute(db);
}

export async function down(): Promise<void> {
  // The backfilled providers are what those calls went through: nothing to undo.
}

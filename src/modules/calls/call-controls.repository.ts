import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { OperatorAct } from './operator-acts.ts';
import { redactionAt } from '../privacy/redaction-policy/call-redaction.ts';

/**
 * The statements of an operator's controls. Each write is guarded by `status = 'in progress'` in
 * the statement itself: a call that ended a moment before is never marked, whatever was read.
 */

export interface ControlledCall {
  id: number;
  status: string;
  /** The route that placed the call: its vendor and voice connection (registry.ts Route). */
  provider: string;
  connection_id: number | null;
  /** The vendor's id of the call: known once the vendor accepted it. */
  provider_call_id: string | null;
}

export async function readControlledCall(db: Db, callId: number, defaultProvider: string): Promise<ControlledCall | null> {
  const { rows } = await sql<ControlledCall>`
    SELECT k.id, k.status, coalesce(k.provider, k.call_data->>'provider', ${defaultProvider}::text) AS provider,
      k.voice_connection_id AS connection_id, coalesce(k.external_session_id, r.provider_call_id) AS provider_call_id
    FROM calls k LEFT JOIN call_provider_refs r ON r.call_id = k.id WHERE k.id = ${callId}`.execute(db);
  const row = rows[0];
  return row ? { ...row, id: Number(row.id), connection_id: row.connection_id === null ? null : Number(row.connection_id) } : null;
}

/** Records the act unless the call is over or already has one; answers whether it did. */
export async function markOperatorAct(db: Db, callId: number, act: OperatorAct): Promise<boolean> {
  const { rows } = await sql<{ id: number }>`
    UPDATE calls SET call_data = coalesce(call_data, '{}'::jsonb) || jsonb_build_object('operator', ${JSON.stringify(act)}::jsonb), updated_at = now()
    WHERE id = ${callId} AND status = 'in progress' AND call_data->'operator' IS NULL RETURNING id`.execute(db);
  return rows.length > 0;
}

/** Takes back an act the vendor refused, while the call is still in progress (an ended call keeps its record). */
export async function clearOperatorAct(db: Db, callId: number, act: OperatorAct): Promise<void> {
  await sql`
    UPDATE calls SET call_data = call_data - 'operator', updated_at = now()
    WHERE id = ${callId} AND status = 'in progress' AND call_data->'operator'->>'at' = ${act.at}`.execute(db);
}

export interface Whisper {
  id: string;
  message: string;
  at: string;
  user_id: number | null;
  sub_user_id: number | null;
  api_key_id: number | null;
}

/** Appends a whisper to call_data.whispers while the call is in progress and has fewer than `max`; null when it may not. */
export async function addWhisper(db: Db, callId: number, whisper: Omit<Whisper, 'id'>, max: number): Promise<Whisper | null> {
  // The operator's words are kept as the call's rule for call_data redacts them (the vendor is told them as typed).
  const redactor = await redactionAt(db, callId, 'call_data');
  const stored = { id: randomUUID(), ...whisper, ...(redactor && { message: redactor.redact(whisper.message).text }) };
  const { rows } = await sql<{ id: number }>`
    UPDATE calls SET call_data = coalesce(call_data, '{}'::jsonb)
        || jsonb_build_object('whispers', coalesce(call_data->'whispers', '[]'::jsonb) || jsonb_build_array(${JSON.stringify(stored)}::jsonb)),
      updated_at = now()
    WHERE id = ${callId} AND status = 'in progress' AND coalesce(jsonb_array_length(call_data->'whispers'), 0) < ${max} RETURNING id`.execute(db);
  return rows.length > 0 ? stored : null;
}

/** Takes back a whisper the vendor refused. */
export async function removeWhisper(db: Db, callId: number, whisperId: string): Promise<void> {
  await sql`
    UPDATE calls SET call_data = jsonb_set(call_data, '{whispers}',
        (SELECT coalesce(jsonb_agg(w ORDER BY n), '[]'::jsonb) FROM jsonb_array_elements(call_data->'whispers') WITH ORDINALITY AS e(w, n) WHERE w->>'id' <> ${whisperId})),
      updated_at = now()
    WHERE id = ${callId} AND call_data->'whispers' IS NOT NULL`.execute(db);
}

/**
 * The messages whispered to a call, oldest first: what our agent adds to its system prompt
 * before each turn. One primary-key read per turn, next to a language model's hundreds of ms.
 */
export async function whisperedMessages(db: Db, callId: number): Promise<string[]> {
  const { rows } = await sql<{ message: string }>`
    SELECT w->>'message' AS message FROM calls k, jsonb_array_elements(coalesce(k.call_data->'whispers', '[]'::jsonb)) WITH ORDINALITY AS e(w, n)
    WHERE k.id = ${callId} ORDER BY n`.execute(db);
  return rows.map((r) => r.message);
}

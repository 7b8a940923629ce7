import { columns } from '../../db/columns.ts';
import type { Db } from '../../db/connection.ts';
import type { VoiceConnectionRow } from '../../db/tables/voice.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import type { VendorName } from '../../voice/vendors.ts';
import type { OpenedConnection } from '../../voice/connection-loader.ts';

/** All SQL for voice connections. Secrets arrive here already sealed and leave sealed (see openVoiceConnection). */

export type VoiceConnectionValues = Pick<
  VoiceConnectionRow,
  'name' | 'provider' | 'api_key' | 'account_sid' | 'webhook_secret' | 'phone_number_id' | 'agent_id' | 'from_number' | 'max_concurrent_calls' | 'calls_per_second'
>;

/** The columns create and update write; owner, id and timestamps are not among them. */
const SETTINGS = [
  'name', 'provider', 'api_key', 'account_sid', 'webhook_secret', 'phone_number_id', 'agent_id', 'from_number', 'max_concurrent_calls', 'calls_per_second',
] as const satisfies readonly (keyof VoiceConnectionValues)[];

export const findVoiceConnection = (db: Db, id: number) =>
  db.selectFrom('voice_connections').selectAll().where('id', '=', id).executeTakeFirst();

export async function listVoiceConnections(db: Db, ownerId: number, skip: number, limit: number) {
  const base = db.selectFrom('voice_connections').where('owner_id', '=', ownerId);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').offset(skip).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(count.n) };
}

export const insertVoiceConnection = (db: Db, ownerId: number, values: VoiceConnectionValues) =>
  db.insertInto('voice_connections').values({ ...columns(values, SETTINGS), owner_id: ownerId }).returningAll().executeTakeFirstOrThrow();

export const updateVoiceConnection = (db: Db, id: number, values: VoiceConnectionValues) =>
  db.updateTable('voice_connections').set({ ...columns(values, SETTINGS), updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

export const deleteVoiceConnection = (db: Db, id: number) => db.deleteFrom('voice_connections').where('id', '=', id).execute();

/** Ids of the assistants that name this connection (a connection in use cannot be deleted). */
export async function assistantsUsing(db: Db, connectionId: number): Promise<number[]> {
  const rows = await db.selectFrom('assistants').select('id').where('voice_connection_id', '=', connectionId).orderBy('id').execute();
  return rows.map((r) => Number(r.id));
}

/** A connection's credentials in the clear, for the dialer and the events route: the shape the voice port reads. */
export type OpenedVoiceConnection = OpenedConnection;

/**
 * Opens a connection's sealed secrets. Null for an unknown id. Throws SecretBoxError when
 * they were sealed under another SECRET_KEY (the way out: save api_key and webhook_secret again).
 */
export async function openVoiceConnection(db: Db, secrets: SecretBox, id: number): Promise<OpenedVoiceConnection | null> {
  const row = await findVoiceConnection(db, id);
  if (!row) return null;
  return {
    id: Number(row.id),
    owner_id: Number(row.owner_id),
    provider: row.provider as OpenedVoiceConnection['provider'],
    apiKey: secrets.open(row.api_key),
    accountSid: row.account_sid,
    webhookSecret: secrets.open(row.webhook_secret),
    phoneNumberId: row.phone_number_id,
    agentId: row.agent_id,
    fromNumber: row.from_number,
    maxConcurrent: row.max_concurrent_calls,
    callsPerSecond: row.calls_per_second,
  };
}

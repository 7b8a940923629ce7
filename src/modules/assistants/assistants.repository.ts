import { sql } from 'kysely';
import { columns } from '../../db/columns.ts';
import type { Db } from '../../db/connection.ts';
import type { AssistantRow } from '../../db/tables/voice.ts';

/** All SQL for assistants. Every function takes a db handle or a transaction. */

export type AssistantValues = Omit<AssistantRow, 'id' | 'owner_id' | 'created_at' | 'updated_at' | 'action_status_rules'> & { action_status_rules: unknown[] };

/** The columns create and update write; owner, id and timestamps are not among them. */
const SETTINGS = [
  'name', 'provider', 'provider_assistant_id', 'voice_connection_id', 'first_message', 'system_prompt', 'voice', 'language', 'model',
  'voicemail_action', 'voicemail_message', 'max_duration_seconds', 'transfer_number',
] as const satisfies readonly (keyof AssistantValues)[];

export const findAssistant = (db: Db, id: number) => db.selectFrom('assistants').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * A sub-user sees the assistants of campaigns granted to it, and no other: it must not learn
 * the prompts of campaigns it may not see.
 */
export const usedByGrantedCampaign = (subUserId: number) => sql<boolean>`EXISTS (
  SELECT 1 FROM campaigns c JOIN campaign_sub_users g ON g.campaign_id = c.id
  WHERE c.assistant_id = assistants.id AND g.sub_user_id = ${subUserId})`;

export async function listAssistants(db: Db, ownerId: number, skip: number, limit: number, subUserId?: number) {
  const base = db
    .selectFrom('assistants')
    .where('owner_id', '=', ownerId)
    .$if(subUserId !== undefined, (qb) => qb.where(usedByGrantedCampaign(subUserId!)));
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').offset(skip).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(count.n) };
}

export async function isVisibleToSubUser(db: Db, id: number, subUserId: number) {
  const row = await db.selectFrom('assistants').select('id').where('id', '=', id).where(usedByGrantedCampaign(subUserId)).executeTakeFirst();
  return row !== undefined;
}

export const insertAssistant = (db: Db, ownerId: number, values: AssistantValues) =>
  db
    .insertInto('assistants')
    .values({ ...columns(values, SETTINGS), owner_id: ownerId, action_status_rules: JSON.stringify(values.action_status_rules) })
    .returningAll()
    .executeTakeFirstOrThrow();

export const updateAssistant = (db: Db, id: number, values: AssistantValues) =>
  db
    .updateTable('assistants')
    .set({ ...columns(values, SETTINGS), action_status_rules: JSON.stringify(values.action_status_rules), updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

export const deleteAssistant = (db: Db, id: number) => db.deleteFrom('assistants').where('id', '=', id).execute();

/** Ids of the campaigns that use this assistant, ascending. */
export async function campaignsUsing(db: Db, assistantId: number): Promise<number[]> {
  const rows = await db.selectFrom('campaigns').select('id').where('assistant_id', '=', assistantId).orderBy('id').execute();
  return rows.map((r) => r.id);
}

/**
 * Whether the assistant exists in this account, for a campaign's assistant_id. Locks it against
 * deletion (FOR KEY SHARE, what the campaigns' foreign key takes) until the caller's transaction ends.
 */
export async function assistantInAccount(db: Db, ownerId: number, id: number): Promise<boolean> {
  const row = await db.selectFrom('assistants').select('id').where('id', '=', id).where('owner_id', '=', ownerId).forKeyShare().executeTakeFirst();
  return row !== undefined;
}

/** Assistants by id, for the calls that use them (dialling, inbound answers, the Twilio agent's script). */
export async function assistantsByIds(db: Db, ids: number[]): Promise<Map<number, AssistantRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('assistants').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

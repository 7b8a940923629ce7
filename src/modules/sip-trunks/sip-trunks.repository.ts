import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { SipTrunkRow } from '../../db/tables/sip-trunks.ts';

/** All SQL for SIP trunks. The password arrives here sealed and leaves sealed. */

export type SipTrunkValues = Pick<SipTrunkRow, 'name' | 'username' | 'password' | 'gateways' | 'caller_ids'>;
export type SipTrunkWithCampaigns = SipTrunkRow & { campaign_ids: number[] };

const withCampaigns = (db: Db) =>
  db.selectFrom('sip_trunks as t').selectAll('t').select(sql<number[]>`COALESCE((SELECT array_agg(c.id ORDER BY c.id) FROM campaigns c WHERE c.sip_trunk_id = t.id), '{}')`.as('campaign_ids'));

const numbers = (row: SipTrunkWithCampaigns): SipTrunkWithCampaigns => ({ ...row, campaign_ids: row.campaign_ids.map(Number) });

export async function findSipTrunk(db: Db, id: number) {
  const row = await withCampaigns(db).where('t.id', '=', id).executeTakeFirst();
  return row && numbers(row);
}

export async function listSipTrunks(db: Db, ownerId: number, skip: number, limit: number) {
  const [rows, count] = await Promise.all([
    withCampaigns(db).where('t.owner_id', '=', ownerId).orderBy('t.id', 'desc').offset(skip).limit(limit).execute(),
    db.selectFrom('sip_trunks').where('owner_id', '=', ownerId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(numbers), count: Number(count.n) };
}

export const insertSipTrunk = (db: Db, ownerId: number, v: SipTrunkValues) =>
  db.insertInto('sip_trunks').values({ owner_id: ownerId, name: v.name, username: v.username, password: v.password, gateways: v.gateways, caller_ids: v.caller_ids }).returning('id').executeTakeFirstOrThrow();

export const updateSipTrunk = (db: Db, id: number, v: SipTrunkValues) =>
  db.updateTable('sip_trunks').set({ name: v.name, username: v.username, password: v.password, gateways: v.gateways, caller_ids: v.caller_ids, updated_at: sql`now()` }).where('id', '=', id).execute();

export const deleteSipTrunk = (db: Db, id: number) => db.deleteFrom('sip_trunks').where('id', '=', id).execute();

export const setCampaignSipTrunk = (db: Db, campaignId: number, trunkId: number | null) =>
  db.updateTable('campaigns').set({ sip_trunk_id: trunkId }).where('id', '=', campaignId).execute();

export const campaignSipTrunk = async (db: Db, campaignId: number) =>
  (await db.selectFrom('campaigns').select('sip_trunk_id').where('id', '=', campaignId).executeTakeFirst())?.sip_trunk_id ?? null;

/** The trunks with their passwords in the clear, for the vendor requests of calls being placed (never for an answer). */
export async function openSipTrunks(db: Db, box: { open(sealed: string | null): string | null }, ids: number[]) {
  if (ids.length === 0) return new Map<number, SipTrunkRow>();
  const rows = await db.selectFrom('sip_trunks').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [Number(r.id), { ...r, password: box.open(r.password) }]));
}

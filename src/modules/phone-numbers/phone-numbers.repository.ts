import type { ExpressionBuilder } from 'kysely';
import { columns as pick } from '../../db/columns.ts';
import type { Db } from '../../db/connection.ts';
import type { Database } from '../../db/schema.ts';
import type { Principal } from '../auth/principal.ts';
import { campaignVisibleTo } from '../campaigns/campaign-access.ts';

/** All SQL for phone numbers. Every function takes a db handle or a transaction. */

const columns = [
  'phone_numbers.id',
  'phone_numbers.phone_number',
  'phone_numbers.campaign_id',
  'campaigns.title as campaign_title',
  'phone_numbers.country_code',
  'phone_numbers.owner_id',
  'phone_numbers.provider_number_id',
] as const;

const base = (db: Db) =>
  db.selectFrom('phone_numbers').leftJoin('campaigns', 'campaigns.id', 'phone_numbers.campaign_id').select(columns);

const visibleTo = (principal: Principal) => campaignVisibleTo(principal, 'phone_numbers.campaign_id', 'phone_numbers.owner_id');

export async function listPhoneNumbers(db: Db, principal: Principal, filter: { skip: number; limit: number; campaignId?: number | undefined }) {
  const where = (eb: ExpressionBuilder<Database, 'phone_numbers'>) =>
    eb.and([visibleTo(principal)(eb), ...(filter.campaignId !== undefined ? [eb('phone_numbers.campaign_id', '=', filter.campaignId)] : [])]);
  const data = await base(db).where(where).orderBy('phone_numbers.id', 'desc').offset(filter.skip).limit(filter.limit).execute();
  const { count } = await db
    .selectFrom('phone_numbers')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(where)
    .executeTakeFirstOrThrow();
  return { data, count: Number(count) };
}

export const findPhoneNumber = (db: Db, id: number) => base(db).where('phone_numbers.id', '=', id).executeTakeFirst();

/** The numbers assigned to these campaigns, for the campaign responses. */
export async function phoneNumbersOfCampaigns(db: Db, campaignIds: number[]) {
  if (campaignIds.length === 0) return [];
  return base(db).where('phone_numbers.campaign_id', 'in', campaignIds).orderBy('phone_numbers.id', 'asc').execute();
}

const SETTINGS = ['phone_number', 'country_code', 'campaign_id', 'provider_number_id'] as const;

export async function insertPhoneNumber(db: Db, ownerId: number, row: { phone_number: string; country_code: string | null; campaign_id: number | null; provider_number_id: string | null }) {
  const { id } = await db.insertInto('phone_numbers').values({ owner_id: ownerId, ...pick(row, SETTINGS) }).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updatePhoneNumber(db: Db, id: number, values: { phone_number?: string; country_code?: string | null; campaign_id?: number | null; provider_number_id?: string | null }) {
  const patch = pick(values, SETTINGS);
  if (Object.keys(patch).length === 0) return;
  await db.updateTable('phone_numbers').set(patch).where('id', '=', id).execute();
}

export async function deletePhoneNumber(db: Db, id: number) {
  await db.deleteFrom('phone_numbers').where('id', '=', id).execute();
}

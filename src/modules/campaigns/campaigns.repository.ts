import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { columns } from '../../db/columns.ts';
import type { Db } from '../../db/connection.ts';
import type { CampaignUpdate as CampaignPatch, Database, NewCampaign } from '../../db/schema.ts';
import type { Principal } from '../auth/principal.ts';
import { phoneNumbersOfCampaigns } from '../phone-numbers/phone-numbers.repository.ts';
import { campaignVisibleTo } from './campaign-access.ts';
import type { CAMPAIGN_TYPES, LIMIT_UNITS } from './campaigns.schemas.ts';
import { listPromptHistory } from './prompt-history.repository.ts';
import type { WorkSchedule } from '../contact-lifecycle/work-schedule.ts';

/** All SQL for campaigns. Every function takes a db handle or a transaction. */

/** Columns the database keeps as text or jsonb, typed as the checks on the way in guarantee. */
function typed<R extends { campaign_type: string; limit_unit: string | null; work_schedule: unknown }>(row: R) {
  return {
    ...row,
    campaign_type: row.campaign_type as (typeof CAMPAIGN_TYPES)[number],
    limit_unit: row.limit_unit as (typeof LIMIT_UNITS)[number] | null,
    work_schedule: row.work_schedule as WorkSchedule | null,
  };
}

/** What a client may set on a campaign; the owner and the limit's usage are the service's. */
export const CAMPAIGN_SETTINGS = [
  'title', 'campaign_type', 'description', 'campaign_data', 'campaign_phone', 'campaign_sip', 'assistant_id',
  'max_call_attempts', 'concurrent_call_limit', 'call_interval', 'call_allowed_from_time', 'call_allowed_to_time',
  'work_schedule', 'auto_calls', 'is_auto_ai_message', 'is_archive', 'is_paused', 'limit_start', 'limit_end', 'limit_value', 'limit_unit',
] as const;
const SERVICE_COLUMNS = ['limit_usage', 'limit_reached', 'created_at', 'updated_at'] as const;

export async function insertCampaign(db: Db, ownerId: number, values: Omit<NewCampaign, 'owner_id'>) {
  const { id } = await db
    .insertInto('campaigns')
    .values({ ...columns(values, [...CAMPAIGN_SETTINGS, ...SERVICE_COLUMNS]), owner_id: ownerId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The row, locked until the transaction ends, so a prompt change is compared with what is really stored. */
export const lockCampaign = (trx: Db, id: number) =>
  trx.selectFrom('campaigns').selectAll().where('id', '=', id).forUpdate().executeTakeFirstOrThrow();

export async function updateCampaign(db: Db, id: number, patch: CampaignPatch) {
  await db.updateTable('campaigns').set(columns(patch, [...CAMPAIGN_SETTINGS, 'limit_reached', 'updated_at'])).where('id', '=', id).execute();
}

export interface CampaignFilter {
  skip: number;
  limit: number;
  title?: string | undefined;
  ids?: number[] | undefined;
  subUserIds?: number[] | undefined;
  includeArchived: boolean;
}

// LIKE wildcards typed by the client match themselves.
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function matching(principal: Principal, filter: CampaignFilter) {
  return (eb: ExpressionBuilder<Database, 'campaigns'>): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [campaignVisibleTo(principal, 'campaigns.id', 'campaigns.owner_id')(eb)];
    if (!filter.includeArchived) conditions.push(eb('campaigns.is_archive', '=', false));
    if (filter.title) conditions.push(sql<SqlBool>`campaigns.title ILIKE ${`%${likeLiteral(filter.title)}%`} ESCAPE '\\'`);
    if (filter.ids?.length) conditions.push(eb('campaigns.id', 'in', filter.ids));
    if (filter.subUserIds?.length) {
      // A sub-user of another account has no grant on this account's campaigns; the owner check says so explicitly.
      conditions.push(
        eb.exists(
          eb
            .selectFrom('campaign_sub_users as g')
            .innerJoin('sub_users as s', 's.id', 'g.sub_user_id')
            .select(sql`1`.as('one'))
            .whereRef('g.campaign_id', '=', 'campaigns.id')
            .where('g.sub_user_id', 'in', filter.subUserIds)
            .where('s.owner_id', '=', principal.ownerId),
        ),
      );
    }
    return eb.and(conditions);
  };
}

const LIST_COLUMNS = [
  'id', 'owner_id', 'title', 'description', 'campaign_type', 'campaign_phone', 'campaign_sip', 'assistant_id',
  'max_call_attempts', 'concurrent_call_limit', 'call_interval', 'call_allowed_from_time', 'call_allowed_to_time',
  'work_schedule', 'auto_calls', 'is_auto_ai_message', 'is_archive', 'is_paused', 'limit_value', 'limit_unit',
  'limit_usage', 'limit_reached',
] as const;

/** A page of list items (newest first) and the total number of matches. */
export async function listCampaigns(db: Db, principal: Principal, filter: CampaignFilter) {
  const where = matching(principal, filter);
  const rows = await db.selectFrom('campaigns').select(LIST_COLUMNS).where(where).orderBy('id', 'desc').offset(filter.skip).limit(filter.limit).execute();
  const { count } = await db.selectFrom('campaigns').select((eb) => eb.fn.countAll<number>().as('count')).where(where).executeTakeFirstOrThrow();
  const ids = rows.map((r) => r.id);
  const [phones, subUsers] = [await phoneNumbersOfCampaigns(db, ids), await subUsersOfCampaigns(db, ids)];
  return {
    data: rows.map((row) => ({
      ...typed(row),
      phone_numbers: phones.filter((p) => p.campaign_id === row.id),
      sub_users: subUsers.filter((s) => s.campaign_id === row.id).map(({ campaign_id: _c, ...brief }) => brief),
    })),
    count: Number(count),
  };
}

export async function subUsersOfCampaigns(db: Db, campaignIds: number[]) {
  if (campaignIds.length === 0) return [];
  return db
    .selectFrom('campaign_sub_users as g')
    .innerJoin('sub_users as s', 's.id', 'g.sub_user_id')
    .select(['g.campaign_id', 's.id', 's.username', 's.full_name', 's.email'])
    .where('g.campaign_id', 'in', campaignIds)
    .orderBy('s.id', 'asc')
    .execute();
}

/**
 * The full Campaign response (numbers, sub-users, prompt history) for one id, or
 * undefined. Does not check access: callers do (requireCampaign).
 */
export async function loadCampaignResponse(db: Db, id: number) {
  const row = await db.selectFrom('campaigns').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const { created_at: _c, updated_at: _u, ...campaign } = row;
  const phoneNumbers = await phoneNumbersOfCampaigns(db, [id]);
  const subUsers = await subUsersOfCampaigns(db, [id]);
  const promptHistory = await listPromptHistory(db, id);
  return {
    ...typed(campaign),
    campaign_data: campaign.campaign_data as Record<string, unknown> | null,
    phone_numbers: phoneNumbers,
    sub_users: subUsers.map(({ campaign_id: _id, ...brief }) => brief),
    prompt_history: promptHistory,
  };
}
export type CampaignResponse = NonNullable<Awaited<ReturnType<typeof loadCampaignResponse>>>;

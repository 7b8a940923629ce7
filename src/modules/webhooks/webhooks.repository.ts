import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { columns } from '../../db/columns.ts';
import type { Database } from '../../db/schema.ts';
import type { WebhookIntegrationRow } from '../../db/tables/webhooks.ts';

type Handle = Kysely<Database>;

export type IntegrationValues = Omit<WebhookIntegrationRow, 'id' | 'owner_id' | 'created_at' | 'updated_at' | 'signing_secret' | 'request_schema' | 'request_schema_source' | 'instructions'> & {
  request_schema: unknown;
  request_schema_source: unknown;
  instructions: Record<string, string>;
};

const json = (v: unknown) => JSON.stringify(v);

/** The settings an integration's create and update write; owner, signing secret and timestamps are not among them. */
const SETTINGS = [
  'name', 'url', 'auth_type', 'basic_login', 'basic_password', 'bearer_token', 'api_key_value', 'api_key_header',
  'http_method', 'allowed_hosts', 'timeout', 'save_data_use_url_params', 'only_interested', 'call_statuses', 'is_active', 'send_inbound_texts',
  'send_campaign_events',
] as const satisfies readonly (keyof IntegrationValues)[];

export async function insertIntegration(db: Handle, input: { ownerId: number; values: IntegrationValues; signingSecret: string; campaignIds: number[] }) {
  const { values } = input;
  const row = await db
    .insertInto('webhook_integrations')
    .values({
      ...columns(values, SETTINGS),
      owner_id: input.ownerId,
      signing_secret: input.signingSecret,
      request_schema: json(values.request_schema),
      request_schema_source: json(values.request_schema_source),
      instructions: json(values.instructions),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await setCampaigns(db, row.id, input.campaignIds);
  return row;
}

export async function updateIntegration(db: Handle, id: number, values: IntegrationValues, campaignIds: number[] | undefined) {
  const row = await db
    .updateTable('webhook_integrations')
    .set({
      ...columns(values, SETTINGS),
      request_schema: json(values.request_schema),
      request_schema_source: json(values.request_schema_source),
      instructions: json(values.instructions),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (campaignIds) await setCampaigns(db, id, campaignIds);
  return row;
}

async function setCampaigns(db: Handle, integrationId: number, campaignIds: number[]) {
  await db.deleteFrom('webhook_integration_campaigns').where('integration_id', '=', integrationId).execute();
  await db
    .insertInto('webhook_integration_campaigns')
    .values(campaignIds.map((campaign_id) => ({ integration_id: integrationId, campaign_id })))
    .execute();
}

export const findIntegration = (db: Handle, id: number) =>
  db.selectFrom('webhook_integrations').selectAll().where('id', '=', id).executeTakeFirst();

export async function campaignIdsOf(db: Handle, integrationIds: number[]): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>(integrationIds.map((id) => [id, []]));
  if (integrationIds.length === 0) return map;
  const rows = await db
    .selectFrom('webhook_integration_campaigns')
    .select(['integration_id', 'campaign_id'])
    .where('integration_id', 'in', integrationIds)
    .orderBy('campaign_id')
    .execute();
  for (const r of rows) map.get(r.integration_id)?.push(r.campaign_id);
  return map;
}

/**
 * A sub-user sees an integration only when every campaign it serves is granted to it, so
 * it never learns the URL or campaign ids of a campaign it may not see.
 */
export function visibleToSubUser(subUserId: number) {
  return sql<boolean>`NOT EXISTS (
    SELECT 1 FROM webhook_integration_campaigns wic
    WHERE wic.integration_id = webhook_integrations.id
      AND NOT EXISTS (SELECT 1 FROM campaign_sub_users g WHERE g.campaign_id = wic.campaign_id AND g.sub_user_id = ${subUserId}))`;
}

export async function listIntegrations(db: Handle, ownerId: number, skip: number, limit: number, subUserId?: number) {
  const base = db
    .selectFrom('webhook_integrations')
    .where('owner_id', '=', ownerId)
    .$if(subUserId !== undefined, (qb) => qb.where(visibleToSubUser(subUserId!)));
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').offset(skip).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(count.n) };
}

export const setSigningSecret = (db: Handle, id: number, sealed: string) =>
  db.updateTable('webhook_integrations').set({ signing_secret: sealed, updated_at: new Date() }).where('id', '=', id).execute();

export const deleteIntegration = (db: Handle, id: number) => db.deleteFrom('webhook_integrations').where('id', '=', id).execute();

import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { Database } from '../../db/schema.ts';
import { columns } from '../../db/columns.ts';

type Executor = Db | Transaction<Database>;

const SETTINGS = ['name', 'auto_start_calls', 'determine_timezone', 'rate_limit_per_minute'] as const;
const TOKEN = ['token_prefix', 'token_hash'] as const;
type Settings = { name: string; auto_start_calls: boolean; determine_timezone: boolean; rate_limit_per_minute: number };
type Token = { token_prefix: string; token_hash: string };

const COLUMNS = ['id', 'owner_id', 'name', 'token_prefix', 'auto_start_calls', 'determine_timezone', 'rate_limit_per_minute', 'created_at', 'updated_at'] as const;

export type IntegrationRow = Awaited<ReturnType<ReturnType<typeof createContactIntegrationsRepository>['findById']>> & {};

export function createContactIntegrationsRepository(db: Db) {
  const campaignIds = (ex: Executor, integrationIds: number[]) =>
    integrationIds.length === 0
      ? Promise.resolve([])
      : ex.selectFrom('contact_integration_campaigns').select(['integration_id', 'campaign_id']).where('integration_id', 'in', integrationIds).orderBy('position').execute();

  async function withCampaigns<T extends { id: number }>(ex: Executor, rows: T[]) {
    const links = await campaignIds(ex, rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, campaign_ids: links.filter((l) => l.integration_id === r.id).map((l) => l.campaign_id) }));
  }

  return {
    async findById(id: number, ex: Executor = db) {
      const row = await ex.selectFrom('contact_integrations').select(COLUMNS).where('id', '=', id).executeTakeFirst();
      return row ? (await withCampaigns(ex, [row]))[0]! : undefined;
    },

    async findByTokenHash(hash: string) {
      const row = await db.selectFrom('contact_integrations').select(COLUMNS).where('token_hash', '=', hash).executeTakeFirst();
      return row ? (await withCampaigns(db, [row]))[0]! : undefined;
    },

    async listByOwner(ownerId: number) {
      const rows = await db.selectFrom('contact_integrations').select(COLUMNS).where('owner_id', '=', ownerId).orderBy('id', 'desc').execute();
      return withCampaigns(db, rows);
    },

    async insert(trx: Executor, ownerId: number, values: Settings & Token) {
      return trx
        .insertInto('contact_integrations')
        .values({ owner_id: ownerId, ...columns(values, [...SETTINGS, ...TOKEN]) })
        .returning('id')
        .executeTakeFirstOrThrow();
    },

    /** Changes the settings present; the owner, token and timestamps are not settings. */
    async updateSettings(trx: Executor, id: number, values: Partial<Settings>) {
      await trx.updateTable('contact_integrations').set({ ...columns(values, SETTINGS), updated_at: sql<Date>`now()` }).where('id', '=', id).execute();
    },

    async replaceToken(trx: Executor, id: number, token: Token) {
      await trx.updateTable('contact_integrations').set({ ...columns(token, TOKEN), updated_at: sql<Date>`now()` }).where('id', '=', id).execute();
    },

    async setCampaigns(trx: Executor, id: number, campaignIdList: number[]) {
      await trx.deleteFrom('contact_integration_campaigns').where('integration_id', '=', id).execute();
      await trx
        .insertInto('contact_integration_campaigns')
        .values(campaignIdList.map((campaign_id, position) => ({ integration_id: id, campaign_id, position })))
        .execute();
    },

    async delete(id: number) {
      await db.deleteFrom('contact_integrations').where('id', '=', id).execute();
    },

    /**
     * Counts `weight` hits in the integration's current fixed window and answers the
     * window's total. One upsert, so concurrent requests in any process count exactly.
     */
    async hit(integrationId: number, windowStart: Date, weight: number): Promise<number> {
      const result = await sql<{ hits: number }>`
        INSERT INTO contact_integration_rate_windows AS w (integration_id, window_start, hits)
        VALUES (${integrationId}, ${windowStart}, ${weight})
        ON CONFLICT (integration_id) DO UPDATE
          SET hits = CASE WHEN w.window_start = excluded.window_start THEN w.hits + excluded.hits ELSE excluded.hits END,
              window_start = excluded.window_start
        RETURNING hits`.execute(db);
      return Number(result.rows[0]!.hits);
    },
  };
}

export type ContactIntegrationsRepository = ReturnType<typeof createContactIntegrationsRepository>;

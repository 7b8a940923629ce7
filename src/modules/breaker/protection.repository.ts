import type { Db } from '../../db/connection.ts';
import type { CampaignProtectionRow } from '../../db/tables/breaker.ts';
import type { StoredProtection } from './protection.schemas.ts';

/** The campaign_protection row, if the campaign has one (none: the defaults, counted from the start). */
export const findCampaignProtection = (db: Db, campaignId: number): Promise<CampaignProtectionRow | undefined> =>
  db.selectFrom('campaign_protection').selectAll().where('campaign_id', '=', campaignId).executeTakeFirst();

/** Writes a campaign's whole settings (the service merged the request into the current ones); names every column it writes. */
export async function saveCampaignProtection(db: Db, row: { campaignId: number; ownerId: number; settings: StoredProtection; now: Date }): Promise<CampaignProtectionRow> {
  const s = row.settings;
  const values = {
    breaker_enabled: s.breaker_enabled, failure_rate_threshold: s.failure_rate_threshold, window_seconds: s.window_seconds,
    min_attempts: s.min_attempts, updated_at: row.now,
  };
  return db.insertInto('campaign_protection').values({ campaign_id: row.campaignId, owner_id: row.ownerId, ...values })
    .onConflict((oc) => oc.column('campaign_id').doUpdateSet(values))
    .returningAll().executeTakeFirstOrThrow();
}

import type { Db } from '../../db/connection.ts';
import type { CampaignPrivacyTable, PrivacySettingsTable } from '../../db/tables/privacy.ts';

/**
 * The one row of privacy settings per account (privacy_settings) and per campaign
 * (campaign_privacy) holds retention, redaction and recording together; each setting writes
 * only its own columns, created with the row when it is the first.
 */
type AccountColumns = Partial<Omit<PrivacySettingsTable, 'owner_id' | 'updated_at' | 'erasure_salt'>>;
type CampaignColumns = Partial<Omit<CampaignPrivacyTable, 'campaign_id' | 'owner_id' | 'updated_at'>>;

export async function saveAccountPrivacy(db: Db, ownerId: number, columns: AccountColumns): Promise<void> {
  const values = { ...columns, updated_at: new Date() };
  await db.insertInto('privacy_settings').values({ owner_id: ownerId, ...values })
    .onConflict((oc) => oc.column('owner_id').doUpdateSet(values)).execute();
}

export async function saveCampaignPrivacy(db: Db, campaign: { id: number; owner_id: number }, columns: CampaignColumns): Promise<void> {
  const values = { ...columns, updated_at: new Date() };
  await db.insertInto('campaign_privacy').values({ campaign_id: campaign.id, owner_id: campaign.owner_id, retention_days: null, ...values })
    .onConflict((oc) => oc.column('campaign_id').doUpdateSet(values)).execute();
}

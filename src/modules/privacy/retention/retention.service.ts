import { saveAccountPrivacy, saveCampaignPrivacy } from '../privacy-settings.repository.ts';
import type { Db } from '../../../db/connection.ts';
import { HttpError } from '../../../http/errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../../audit/audit.service.ts';
import { requireCampaign } from '../../campaigns/campaign-access.ts';
import type { CampaignPrivacy, CampaignPrivacyUpdate, PrivacySettings, PrivacySettingsUpdate } from './retention.schemas.ts';

const ownerOnly = (what: string) => new HttpError(403, `Only the account owner may change ${what}; a sub-user may read it (ask the owner)`);

export async function readPrivacySettings(db: Db, principal: Principal): Promise<PrivacySettings> {
  const row = await db.selectFrom('privacy_settings').select(['retention_days', 'updated_at']).where('owner_id', '=', principal.ownerId).executeTakeFirst();
  return { retention_days: row?.retention_days ?? null, updated_at: row?.updated_at ?? null };
}

/** The owner's change, saved and audited in one transaction (a sub-user: 403). */
export async function updatePrivacySettings(db: Db, principal: Principal, input: PrivacySettingsUpdate, request?: AuditRequest): Promise<PrivacySettings> {
  if (principal.kind !== 'user') throw ownerOnly('the account\'s retention');
  return db.transaction().execute(async (trx) => {
    const before = await readPrivacySettings(trx, principal);
    await saveAccountPrivacy(trx, principal.ownerId, { retention_days: input.retention_days });
    if (before.retention_days !== input.retention_days) {
      await recordAudit(trx, { principal, request, kind: 'privacy.retention_changed', subject: { type: 'account', id: principal.ownerId }, details: { from: before.retention_days, to: input.retention_days } });
    }
    return readPrivacySettings(trx, principal);
  });
}

/** The shorter of two retentions; null when neither keeps data for a while. */
const shorter = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

export async function readCampaignPrivacy(db: Db, principal: Principal, campaignId: number): Promise<CampaignPrivacy> {
  const campaign = await requireCampaign(db, principal, campaignId);
  const [own, account] = await Promise.all([
    db.selectFrom('campaign_privacy').select(['retention_days', 'updated_at']).where('campaign_id', '=', campaign.id).executeTakeFirst(),
    readPrivacySettings(db, principal),
  ]);
  const days = own?.retention_days ?? null;
  return {
    campaign_id: campaign.id, retention_days: days, account_retention_days: account.retention_days,
    effective_retention_days: shorter(days, account.retention_days), updated_at: own?.updated_at ?? null,
  };
}

export async function updateCampaignPrivacy(db: Db, principal: Principal, campaignId: number, input: CampaignPrivacyUpdate, request?: AuditRequest): Promise<CampaignPrivacy> {
  return db.transaction().execute(async (trx) => {
    const campaign = await requireCampaign(trx, principal, campaignId);
    if (principal.kind !== 'user') throw ownerOnly('a campaign\'s retention');
    const before = await readCampaignPrivacy(trx, principal, campaign.id);
    await saveCampaignPrivacy(trx, campaign, { retention_days: input.retention_days });
    if (before.retention_days !== input.retention_days) {
      await recordAudit(trx, { principal, request, kind: 'privacy.retention_changed', subject: { type: 'campaign', id: campaign.id }, details: { from: before.retention_days, to: input.retention_days } });
    }
    return readCampaignPrivacy(trx, principal, campaign.id);
  });
}

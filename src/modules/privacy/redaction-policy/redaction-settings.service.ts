import { saveAccountPrivacy, saveCampaignPrivacy } from '../privacy-settings.repository.ts';
import type { Db } from '../../../db/connection.ts';
import { HttpError } from '../../../http/errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../../audit/audit.service.ts';
import { requireCampaign } from '../../campaigns/campaign-access.ts';
import { forgetCallRedactions } from './call-redaction.ts';
import { DEFAULT_REDACTION, policyOf, type RedactionPolicy } from './redaction-policy.ts';
import type { CampaignRedaction, CampaignRedactionUpdate, RedactionSettings, RedactionSettingsUpdate } from './redaction-settings.schemas.ts';

const ownerOnly = (what: string) => new HttpError(403, `Only the account owner may change ${what}; a sub-user may read it (ask the owner)`);
const same = (a: RedactionPolicy | { categories: string[] | null; places: string[] | null }, b: typeof a) =>
  JSON.stringify([a.categories, a.places]) === JSON.stringify([b.categories, b.places]);

export async function readRedactionSettings(db: Db, principal: Principal): Promise<RedactionSettings> {
  const row = await db.selectFrom('privacy_settings').select(['redact_categories', 'redact_places', 'updated_at']).where('owner_id', '=', principal.ownerId).executeTakeFirst();
  return { ...policyOf(row, DEFAULT_REDACTION), updated_at: row?.updated_at ?? null };
}

/** The owner's choice, saved and audited in one transaction (a sub-user: 403). */
export async function updateRedactionSettings(db: Db, principal: Principal, input: RedactionSettingsUpdate, request?: AuditRequest): Promise<RedactionSettings> {
  if (principal.kind !== 'user') throw ownerOnly('what the account redacts');
  const saved = await db.transaction().execute(async (trx) => {
    const before = await readRedactionSettings(trx, principal);
    const after = policyOf({ redact_categories: input.categories, redact_places: input.places }, DEFAULT_REDACTION);
    await saveAccountPrivacy(trx, principal.ownerId, { redact_categories: after.categories, redact_places: after.places });
    if (!same(before, after)) {
      await recordAudit(trx, { principal, request, kind: 'privacy.redaction_changed', subject: { type: 'account', id: principal.ownerId }, details: { from: { categories: before.categories, places: before.places }, to: after } });
    }
    return readRedactionSettings(trx, principal);
  });
  forgetCallRedactions(db);
  return saved;
}

export async function readCampaignRedaction(db: Db, principal: Principal, campaignId: number): Promise<CampaignRedaction> {
  const campaign = await requireCampaign(db, principal, campaignId);
  const [own, account] = await Promise.all([
    db.selectFrom('campaign_privacy').select(['redact_categories', 'redact_places', 'updated_at']).where('campaign_id', '=', campaign.id).executeTakeFirst(),
    readRedactionSettings(db, principal),
  ]);
  const categories = own?.redact_categories ? policyOf({ redact_categories: own.redact_categories, redact_places: null }, account).categories : null;
  const places = own?.redact_places ? policyOf({ redact_categories: null, redact_places: own.redact_places }, account).places : null;
  return {
    campaign_id: campaign.id, categories, places,
    effective: policyOf(own, account), updated_at: own?.updated_at ?? null,
  };
}

export async function updateCampaignRedaction(db: Db, principal: Principal, campaignId: number, input: CampaignRedactionUpdate, request?: AuditRequest): Promise<CampaignRedaction> {
  const saved = await db.transaction().execute(async (trx) => {
    const campaign = await requireCampaign(trx, principal, campaignId);
    if (principal.kind !== 'user') throw ownerOnly('what a campaign redacts');
    const before = await readCampaignRedaction(trx, principal, campaign.id);
    await saveCampaignPrivacy(trx, campaign, { redact_categories: input.categories, redact_places: input.places });
    const after = await readCampaignRedaction(trx, principal, campaign.id);
    if (!same(before, after)) {
      await recordAudit(trx, { principal, request, kind: 'privacy.redaction_changed', subject: { type: 'campaign', id: campaign.id }, details: { from: { categories: before.categories, places: before.places }, to: { categories: after.categories, places: after.places } } });
    }
    return after;
  });
  forgetCallRedactions(db);
  return saved;
}

import type { Db } from '../../db/connection.ts';
import type { CampaignProtectionRow } from '../../db/tables/breaker.ts';
import { HttpError } from '../../http/errors.ts';
import type { Principal } from '../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../audit/audit.service.ts';
import { requireCampaign } from '../campaigns/campaign-access.ts';
import { findCampaignProtection, saveCampaignProtection } from './protection.repository.ts';
import { PROTECTION_DEFAULTS, PROTECTION_OWNER_ONLY, type ProtectionSettings, type ProtectionSettingsUpdate, type StoredProtection } from './protection.schemas.ts';

const SETTINGS = Object.keys(PROTECTION_DEFAULTS) as (keyof StoredProtection)[];

function toBody(campaignId: number, row: CampaignProtectionRow | undefined): ProtectionSettings {
  // A row a resume wrote (counted_since alone) holds the defaults and was never saved.
  if (!row) return { campaign_id: campaignId, ...PROTECTION_DEFAULTS, updated_at: null };
  return {
    campaign_id: campaignId, breaker_enabled: row.breaker_enabled, failure_rate_threshold: row.failure_rate_threshold,
    window_seconds: row.window_seconds, min_attempts: row.min_attempts, updated_at: row.updated_at,
  };
}

/** The settings of a campaign the principal may see (owner or granted sub-user); no row: the defaults. */
export async function readProtectionSettings(db: Db, principal: Principal, campaignId: number): Promise<ProtectionSettings> {
  const campaign = await requireCampaign(db, principal, campaignId);
  return toBody(campaign.id, await findCampaignProtection(db, campaign.id));
}

/**
 * Partial update: the fields present change, the rest keep their value (the defaults when the
 * campaign has none saved). Whoever may update the campaign may update these, except switching
 * the breaker on or off for a sub-user (protection.schemas.ts says why); sending back the value
 * a field holds is no change. A change applies from the next call that ends: a campaign already
 * paused stays paused.
 */
export async function updateProtectionSettings(args: { db: Db; principal: Principal; campaignId: number; input: ProtectionSettingsUpdate; now: Date; request?: AuditRequest }): Promise<ProtectionSettings> {
  const { input } = args;
  return args.db.transaction().execute(async (trx) => {
    const campaign = await requireCampaign(trx, args.principal, args.campaignId);
    // Locks the campaign row: two updates merge one after the other, and a call batch judging
    // the campaign (breaker-trip.ts locks it too) reads the settings before or after, not half.
    await trx.selectFrom('campaigns').select('id').where('id', '=', campaign.id).forNoKeyUpdate().execute();
    const current = toBody(campaign.id, await findCampaignProtection(trx, campaign.id));
    if (args.principal.kind === 'sub_user') {
      const changed = PROTECTION_OWNER_ONLY.filter((f) => input[f] !== undefined && input[f] !== current[f]);
      if (changed.length > 0) throw new HttpError(403, `Only the account owner may change ${changed.join(', ')} of a campaign's protection; a sub-user may not (ask the owner)`);
    }
    const merged: StoredProtection = {
      breaker_enabled: input.breaker_enabled ?? current.breaker_enabled,
      failure_rate_threshold: input.failure_rate_threshold ?? current.failure_rate_threshold,
      window_seconds: input.window_seconds ?? current.window_seconds,
      min_attempts: input.min_attempts ?? current.min_attempts,
    };
    const saved = toBody(campaign.id, await saveCampaignProtection(trx, { campaignId: campaign.id, ownerId: campaign.owner_id, settings: merged, now: args.now }));
    const changed = SETTINGS.filter((k) => current[k] !== saved[k]);
    if (changed.length > 0) {
      await recordAudit(trx, {
        principal: args.principal, request: args.request, kind: 'campaign.protection_changed', subject: { type: 'campaign', id: campaign.id },
        details: { changed, from: Object.fromEntries(changed.map((k) => [k, current[k]])), to: Object.fromEntries(changed.map((k) => [k, saved[k]])) },
      });
    }
    return saved;
  });
}

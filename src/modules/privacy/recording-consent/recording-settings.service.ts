import { saveCampaignPrivacy } from '../privacy-settings.repository.ts';
import type { Db } from '../../../db/connection.ts';
import { HttpError } from '../../../http/errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../../audit/audit.service.ts';
import { requireCampaign } from '../../campaigns/campaign-access.ts';
import type { RecordingSetting } from './recording-rule.ts';
import type { CampaignRecording, CampaignRecordingUpdate } from './recording-settings.schemas.ts';

export async function readCampaignRecording(db: Db, principal: Principal, campaignId: number): Promise<CampaignRecording> {
  const campaign = await requireCampaign(db, principal, campaignId);
  const row = await db.selectFrom('campaign_privacy').select(['recording_rule', 'recording_disclosure', 'recording_consent_prompt', 'updated_at'])
    .where('campaign_id', '=', campaign.id).executeTakeFirst();
  return {
    campaign_id: campaign.id, rule: (row?.recording_rule ?? 'auto') as RecordingSetting,
    disclosure: row?.recording_disclosure ?? null, consent_prompt: row?.recording_consent_prompt ?? null, updated_at: row?.updated_at ?? null,
  };
}

/** The owner's change (a sub-user: 403), audited privacy.recording_changed; a field left out keeps its value. */
export async function updateCampaignRecording(db: Db, principal: Principal, campaignId: number, input: CampaignRecordingUpdate, request?: AuditRequest): Promise<CampaignRecording> {
  return db.transaction().execute(async (trx) => {
    const campaign = await requireCampaign(trx, principal, campaignId);
    if (principal.kind !== 'user') throw new HttpError(403, 'Only the account owner may change how a campaign\'s calls are recorded; a sub-user may read it (ask the owner)');
    const before = await readCampaignRecording(trx, principal, campaign.id);
    await saveCampaignPrivacy(trx, campaign, {
      recording_rule: input.rule === 'auto' ? null : input.rule,
      recording_disclosure: input.disclosure === undefined ? before.disclosure : input.disclosure?.trim() ?? null,
      recording_consent_prompt: input.consent_prompt === undefined ? before.consent_prompt : input.consent_prompt?.trim() ?? null,
    });
    const after = await readCampaignRecording(trx, principal, campaign.id);
    const shape = (r: CampaignRecording) => ({ rule: r.rule, disclosure: r.disclosure, consent_prompt: r.consent_prompt });
    if (JSON.stringify(shape(before)) !== JSON.stringify(shape(after))) {
      await recordAudit(trx, { principal, request, kind: 'privacy.recording_changed', subject: { type: 'campaign', id: campaign.id }, details: { from: shape(before), to: shape(after) } });
    }
    return after;
  });
}

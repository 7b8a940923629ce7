import type { Db } from '../../db/connection.ts';
import type { CampaignMessagingRow } from '../../db/tables/messaging.ts';
import { HttpError, unprocessable } from '../../http/errors.ts';
import type { Principal } from '../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../audit/audit.service.ts';
import { requireCampaign } from '../campaigns/campaign-access.ts';
import { MESSAGING_DEFAULTS, type MessagingSettings as Stored } from './messaging-defaults.ts';
import { textTemplateProblem } from './text-template.ts';
import { findCampaignMessaging, saveCampaignMessaging } from './messaging-settings.repository.ts';
import { MESSAGING_OWNER_ONLY, type MessagingSettings, type MessagingSettingsUpdate } from './messaging-settings.schemas.ts';

function toBody(campaignId: number, row: CampaignMessagingRow | undefined): MessagingSettings {
  if (!row) return { campaign_id: campaignId, ...MESSAGING_DEFAULTS, follow_up_statuses: [...MESSAGING_DEFAULTS.follow_up_statuses] as MessagingSettings['follow_up_statuses'], updated_at: null };
  const { owner_id: _owner, campaign_id: _campaign, ...settings } = row;
  return { campaign_id: campaignId, ...settings, follow_up_statuses: settings.follow_up_statuses as MessagingSettings['follow_up_statuses'] };
}

/** The settings of a campaign the principal may see (owner or granted sub-user); no row: the defaults. */
export async function readMessagingSettings(db: Db, principal: Principal, campaignId: number): Promise<MessagingSettings> {
  const campaign = await requireCampaign(db, principal, campaignId);
  return toBody(campaign.id, await findCampaignMessaging(db, campaign.id));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Partial update: the fields present change, the rest keep their value (the defaults when the
 * campaign has no row yet). Whoever may update the campaign may update these, except the
 * owner-only ones for a sub-user (messaging-settings.schemas.ts says which and why); sending
 * back the value a field holds is no change.
 */
export async function updateMessagingSettings(args: { db: Db; principal: Principal; campaignId: number; input: MessagingSettingsUpdate; now: Date; request?: AuditRequest }): Promise<MessagingSettings> {
  const { input } = args;
  if (typeof input.template === 'string') {
    const problem = textTemplateProblem(input.template);
    if (problem) throw unprocessable(['body', 'template'], problem);
  }
  return args.db.transaction().execute(async (trx) => {
    const campaign = await requireCampaign(trx, args.principal, args.campaignId);
    // Locks the campaign row: two updates of its settings merge one after the other.
    await trx.selectFrom('campaigns').select('id').where('id', '=', campaign.id).forUpdate().execute();
    const current = toBody(campaign.id, await findCampaignMessaging(trx, campaign.id));
    if (args.principal.kind === 'sub_user') {
      const changed = MESSAGING_OWNER_ONLY.filter((f) => input[f] !== undefined && !same(input[f], current[f]));
      if (changed.length > 0) throw new HttpError(403, `Only the account owner may change ${changed.join(', ')} of a campaign's text messages; a sub-user may not (ask the owner)`);
    }
    const merged: Stored = {
      channel: input.channel ?? current.channel,
      follow_up_statuses: input.follow_up_statuses ?? current.follow_up_statuses,
      confirm_interested: input.confirm_interested ?? current.confirm_interested,
      delay_minutes: input.delay_minutes ?? current.delay_minutes,
      max_per_contact: input.max_per_contact ?? current.max_per_contact,
      prompt: input.prompt !== undefined ? emptyToNull(input.prompt) : current.prompt,
      template: input.template !== undefined ? emptyToNull(input.template) : current.template,
      whatsapp_content_sid: input.whatsapp_content_sid !== undefined ? input.whatsapp_content_sid : current.whatsapp_content_sid,
      messaging_service_sid: input.messaging_service_sid !== undefined ? input.messaging_service_sid : current.messaging_service_sid,
      reply_stops_calls: input.reply_stops_calls ?? current.reply_stops_calls,
      accept_inbound: input.accept_inbound ?? current.accept_inbound,
      ai_replies: input.ai_replies ?? current.ai_replies,
      max_ai_replies_per_day: input.max_ai_replies_per_day ?? current.max_ai_replies_per_day,
    };
    const saved = toBody(campaign.id, await saveCampaignMessaging(trx, { campaignId: campaign.id, ownerId: campaign.owner_id, settings: merged, now: args.now }));
    const details = changeDetails(current, saved);
    if (details) await recordAudit(trx, { principal: args.principal, request: args.request, kind: 'campaign.messaging_changed', subject: { type: 'campaign', id: campaign.id }, details });
    return saved;
  });
}

/** Free text a person wrote to the AI or the contact: the audit trail keeps its length, not its words. */
const WORDS: readonly (keyof Stored)[] = ['prompt', 'template'];

/** What an update changed, for the audit event; null when it changed nothing (no event). */
function changeDetails(before: MessagingSettings, after: MessagingSettings): Record<string, unknown> | null {
  const changed = (Object.keys(MESSAGING_DEFAULTS) as (keyof Stored)[]).filter((k) => !same(before[k], after[k]));
  if (changed.length === 0) return null;
  const value = (k: keyof Stored, v: unknown) => (WORDS.includes(k) ? (typeof v === 'string' ? { characters: v.length } : null) : v);
  return {
    changed,
    from: Object.fromEntries(changed.map((k) => [k, value(k, before[k])])),
    to: Object.fromEntries(changed.map((k) => [k, value(k, after[k])])),
  };
}

/** A cleared text box is no prompt or template (the built-in one), not an empty text to send. */
const emptyToNull = (v: string | null) => (v === null || v.trim() === '' ? null : v);

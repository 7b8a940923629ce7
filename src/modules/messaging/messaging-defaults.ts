import type { Db } from '../../db/connection.ts';
import type { CampaignMessagingRow } from '../../db/tables/messaging.ts';

/**
 * A campaign's messaging settings: its campaign_messaging row, or the defaults of migration
 * 0028 when it has none (the same values the columns default to).
 */
export type MessagingSettings = Omit<CampaignMessagingRow, 'campaign_id' | 'owner_id' | 'updated_at'>;

export const MESSAGING_DEFAULTS: MessagingSettings = {
  channel: 'sms',
  follow_up_statuses: ['unavailable', 'busy_or_rejected', 'rejected', 'voicemail'],
  confirm_interested: false,
  delay_minutes: 5,
  max_per_contact: 2,
  prompt: null,
  template: null,
  whatsapp_content_sid: null,
  messaging_service_sid: null,
  reply_stops_calls: true,
  accept_inbound: true,
  ai_replies: true,
  max_ai_replies_per_day: 10,
};

export async function messagingSettingsOf(db: Db, campaignId: number): Promise<MessagingSettings> {
  const row = await db.selectFrom('campaign_messaging').selectAll().where('campaign_id', '=', campaignId).executeTakeFirst();
  if (!row) return { ...MESSAGING_DEFAULTS };
  const { campaign_id: _c, owner_id: _o, updated_at: _u, ...settings } = row;
  return settings;
}

/** Settings of several campaigns at once (the follow-up decision of a batch of call ends). */
export async function messagingSettingsOfMany(db: Db, campaignIds: number[]): Promise<Map<number, MessagingSettings>> {
  const out = new Map<number, MessagingSettings>();
  if (campaignIds.length === 0) return out;
  const rows = await db.selectFrom('campaign_messaging').selectAll().where('campaign_id', 'in', [...new Set(campaignIds)]).execute();
  for (const id of campaignIds) out.set(id, { ...MESSAGING_DEFAULTS });
  for (const { campaign_id, owner_id: _o, updated_at: _u, ...settings } of rows) out.set(Number(campaign_id), settings);
  return out;
}

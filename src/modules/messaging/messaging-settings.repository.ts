import type { Db } from '../../db/connection.ts';
import type { CampaignMessagingRow } from '../../db/tables/messaging.ts';
import type { MessagingSettings } from './messaging-defaults.ts';

/** The campaign_messaging row, if the campaign has one (none: the defaults). */
export const findCampaignMessaging = (db: Db, campaignId: number): Promise<CampaignMessagingRow | undefined> =>
  db.selectFrom('campaign_messaging').selectAll().where('campaign_id', '=', campaignId).executeTakeFirst();

/** Writes a campaign's whole settings (the service merged the request into the current ones); names every column it writes. */
export async function saveCampaignMessaging(db: Db, row: { campaignId: number; ownerId: number; settings: MessagingSettings; now: Date }): Promise<CampaignMessagingRow> {
  const s = row.settings;
  const values = {
    channel: s.channel, follow_up_statuses: s.follow_up_statuses, confirm_interested: s.confirm_interested, delay_minutes: s.delay_minutes,
    max_per_contact: s.max_per_contact, prompt: s.prompt, template: s.template, whatsapp_content_sid: s.whatsapp_content_sid,
    messaging_service_sid: s.messaging_service_sid, reply_stops_calls: s.reply_stops_calls, accept_inbound: s.accept_inbound,
    ai_replies: s.ai_replies, max_ai_replies_per_day: s.max_ai_replies_per_day, updated_at: row.now,
  };
  return db.insertInto('campaign_messaging').values({ campaign_id: row.campaignId, owner_id: row.ownerId, ...values })
    .onConflict((oc) => oc.column('campaign_id').doUpdateSet(values))
    .returningAll().executeTakeFirstOrThrow();
}

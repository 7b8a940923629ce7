import { Type, type Static } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../http/schemas.ts';

/**
 * A campaign's text-message settings as GET/PUT /api/v1/campaigns/{id}/messaging read and write
 * them: their own endpoint, so the interface's campaign schema stays exactly the interface's.
 */

/** The terminal call statuses a follow-up text may follow (a call still running or never placed has none). */
export const FOLLOW_UP_STATUSES = ['unavailable', 'busy_or_rejected', 'rejected', 'voicemail', 'silence', 'failed', 'terminated', 'finished'] as const;

const fields = {
  channel: StringEnum(['sms', 'whatsapp'] as const, { description: 'the channel of the campaign\'s texts (default sms)' }),
  follow_up_statuses: Type.Array(StringEnum(FOLLOW_UP_STATUSES), {
    uniqueItems: true, maxItems: FOLLOW_UP_STATUSES.length,
    description: 'a follow-up text is queued after a call that ends with one of these statuses (default unavailable, busy_or_rejected, rejected, voicemail); empty: none',
  }),
  confirm_interested: Type.Boolean({ description: 'also text a confirmation after a call whose outcome is interested (default false)' }),
  delay_minutes: Type.Integer({ minimum: 0, maximum: 10080, description: 'minutes between the call\'s end and its text (default 5; at most a week)' }),
  max_per_contact: Type.Integer({ minimum: 0, maximum: 50, description: 'outbound texts one contact may receive from this campaign, replies to the person excluded (default 2; 0: none)' }),
  prompt: Nullable(Type.String({ maxLength: 4000, description: 'instructions for the LLM that writes the texts (with LLM_BASE_URL); null: a built-in one' })),
  template: Nullable(Type.String({
    maxLength: 1600,
    description: 'the offline text (and the LLM\'s fallback) with placeholders {{contact.<field>}}, {{call.<field>}}, {{campaign.<field>}} only; null: a built-in text per purpose',
  })),
  whatsapp_content_sid: Nullable(Type.String({ pattern: '^HX[0-9a-f]{32}$', description: 'the approved WhatsApp template (Twilio Content SID, HX + 32 hex) sent outside the 24-hour window' })),
  messaging_service_sid: Nullable(Type.String({ pattern: '^MG[0-9a-f]{32}$', description: 'a Twilio Messaging Service (MG + 32 hex) that sends instead of the campaign\'s number' })),
  reply_stops_calls: Type.Boolean({ description: 'a reply from the person counts as reached: the contact\'s pending call retries stop (default true)' }),
  accept_inbound: Type.Boolean({ description: 'texts from unknown numbers to the campaign\'s number create contacts (default true)' }),
  ai_replies: Type.Boolean({ description: 'the AI answers inbound texts (default true)' }),
  max_ai_replies_per_day: Type.Integer({ minimum: 0, maximum: 1000, description: 'AI answers to one contact per rolling 24 hours (default 10)' }),
};

export const MessagingSettings = Type.Object({
  campaign_id: Type.Integer(),
  ...fields,
  updated_at: Nullable(DateTime, { description: 'when they were last saved; null: never, these are the defaults' }),
});
export type MessagingSettings = Static<typeof MessagingSettings>;

export const MessagingSettingsUpdate = Type.Object({
  channel: Type.Optional(fields.channel),
  follow_up_statuses: Type.Optional(fields.follow_up_statuses),
  confirm_interested: Type.Optional(fields.confirm_interested),
  delay_minutes: Type.Optional(fields.delay_minutes),
  max_per_contact: Type.Optional(fields.max_per_contact),
  prompt: Type.Optional(fields.prompt),
  template: Type.Optional(fields.template),
  whatsapp_content_sid: Type.Optional(fields.whatsapp_content_sid),
  messaging_service_sid: Type.Optional(fields.messaging_service_sid),
  reply_stops_calls: Type.Optional(fields.reply_stops_calls),
  accept_inbound: Type.Optional(fields.accept_inbound),
  ai_replies: Type.Optional(fields.ai_replies),
  max_ai_replies_per_day: Type.Optional(fields.max_ai_replies_per_day),
});
export type MessagingSettingsUpdate = Static<typeof MessagingSettingsUpdate>;

/**
 * What a sub-user may not change (403 naming them), as with a campaign's owner-only fields
 * (campaigns/owner-only-fields.ts): which line and channel speak (channel, the two SIDs), what the
 * campaign may spend (max_per_contact, max_ai_replies_per_day), and the AI's instructions
 * (prompt: a campaign prompt a sub-user writes waits for the owner's approval, and texts have no
 * such queue). The template stays open: a sub-user may already text any contact of its
 * campaigns by hand, and a template is the same power, in words it can read.
 */
export const MESSAGING_OWNER_ONLY = ['channel', 'whatsapp_content_sid', 'messaging_service_sid', 'max_per_contact', 'max_ai_replies_per_day', 'prompt'] as const;

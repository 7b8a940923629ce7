import type { Generated, Insertable, Selectable } from 'kysely';
import type { NullableTimestamp } from './column-types.ts';

// Text messages (modules/messaging, issue 25): Kysely's view of what migration 0028 creates.

export type TextChannelName = 'sms' | 'whatsapp';
export type MessagePurpose = 'follow_up' | 'confirmation' | 'reply' | 'manual';
export type MessageStatus = 'sending' | 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed' | 'read' | 'received';
export type MessageRole = 'assistant' | 'contact' | 'operator';

export interface CampaignMessagingTable {
  campaign_id: number;
  owner_id: number;
  channel: Generated<TextChannelName>;
  /** Terminal call statuses after which a follow-up text is sent. */
  follow_up_statuses: Generated<string[]>;
  /** Also text a confirmation after a call whose action_status is interested. */
  confirm_interested: Generated<boolean>;
  delay_minutes: Generated<number>;
  /** Outbound texts a contact may receive from this campaign, replies excluded. */
  max_per_contact: Generated<number>;
  prompt: string | null;
  /** The offline text with {{contact.<field>}} / {{call.<field>}} placeholders. */
  template: string | null;
  /** The approved WhatsApp template sent outside the 24-hour window (Twilio Content SID, HX…). */
  whatsapp_content_sid: string | null;
  /** A Twilio Messaging Service (MG…) sends instead of the campaign's number. */
  messaging_service_sid: string | null;
  /** A reply counts as reached: the contact's pending call retries stop. */
  reply_stops_calls: Generated<boolean>;
  /** Texts from unknown numbers to the campaign's number create contacts. */
  accept_inbound: Generated<boolean>;
  /** The AI answers inbound texts. */
  ai_replies: Generated<boolean>;
  max_ai_replies_per_day: Generated<number>;
  updated_at: Generated<Date>;
}

export interface MessagesTable {
  id: Generated<number>;
  owner_id: number;
  campaign_id: number;
  contact_id: number;
  call_id: number | null;
  direction: 'outbound' | 'inbound';
  role_id: MessageRole;
  /** The channel (the interface's `source`). */
  source: TextChannelName;
  purpose: MessagePurpose | null;
  body: string;
  status: MessageStatus;
  to_number: string;
  from_number: string | null;
  /** Who carried it: 'sim' or 'twilio'. */
  provider: string;
  voice_connection_id: number | null;
  provider_message_id: string | null;
  error_code: string | null;
  error_message: string | null;
  segments: number | null;
  encoding: 'GSM-7' | 'UCS-2' | null;
  cost: number | null;
  sent_by_user_id: number | null;
  sent_by_sub_user_id: number | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  sent_at: NullableTimestamp;
  delivered_at: NullableTimestamp;
  /** Migration 0038: when retention or an erasure emptied its text; null: not yet. */
  personal_data_purged_at: Generated<Date | null>;
}

export interface MessageJobsTable {
  id: Generated<number>;
  owner_id: number;
  campaign_id: number;
  contact_id: number;
  call_id: number | null;
  purpose: MessagePurpose;
  /** The text as given (an operator's); null: written at send time (AI or template). */
  body: string | null;
  reply_to_message_id: number | null;
  sent_by_user_id: number | null;
  sent_by_sub_user_id: number | null;
  due_at: Date;
  status: Generated<'pending' | 'claimed' | 'sent' | 'skipped' | 'cancelled'>;
  /** Why it waits, was skipped or cancelled. */
  reason: string | null;
  locked_by: string | null;
  locked_at: NullableTimestamp;
  message_id: number | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface MessagingTables {
  campaign_messaging: CampaignMessagingTable;
  messages: MessagesTable;
  message_jobs: MessageJobsTable;
}

export type MessageRow = Selectable<MessagesTable>;
export type NewMessage = Insertable<MessagesTable>;
export type MessageJobRow = Selectable<MessageJobsTable>;
export type CampaignMessagingRow = Selectable<CampaignMessagingTable>;

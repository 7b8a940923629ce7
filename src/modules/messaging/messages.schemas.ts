import { Type, type Static } from 'typebox';
import { DateTime, Id, IdList, Limit, Nullable, Skip, StringEnum } from '../../http/schemas.ts';
import { Pagination } from '../calls/calls.schemas.ts';

/**
 * The Messages API's shapes. A text is the interface's Message object, field for field (message,
 * user_id, campaign_id, contact_id, call_id, role_id, source, id, create_datetime, message_data):
 * what the interface does not name (delivery status, direction, purpose, cost, provider ids, the
 * error in plain words) lives in message_data, so a client written against the interface reads
 * a text like any other Message.
 */

export const MESSAGE_DIRECTIONS = ['outbound', 'inbound'] as const;
export const MESSAGE_SOURCES = ['sms', 'whatsapp'] as const;
export const MESSAGE_ROLES = ['assistant', 'contact', 'operator'] as const;
export const MESSAGE_PURPOSES = ['follow_up', 'confirmation', 'reply', 'manual'] as const;
export const MESSAGE_STATUSES = ['sending', 'queued', 'sent', 'delivered', 'undelivered', 'failed', 'read', 'received'] as const;
export const MESSAGE_JOB_STATUSES = ['pending', 'claimed', 'sent', 'skipped', 'cancelled'] as const;

export const MessageStatus = StringEnum(MESSAGE_STATUSES, {
  description: 'MessageStatus: sending (written, not yet accepted by the vendor), queued, sent, delivered, read (WhatsApp), undelivered, failed; received for an inbound text',
});
export const MessagePurpose = StringEnum(MESSAGE_PURPOSES, {
  description: 'MessagePurpose: follow_up (after a call that did not reach the person), confirmation (after an interested call), reply (an answer to the person), manual (an operator\'s)',
});
export const MessageJobStatus = StringEnum(MESSAGE_JOB_STATUSES, {
  description: 'MessageJobStatus: pending (waits for due_at or the law), claimed (being sent), sent, skipped (the law or a setting said no: see reason), cancelled (an opt-out, a reply)',
});

const MessageData = Type.Object({
  direction: StringEnum(MESSAGE_DIRECTIONS),
  status: MessageStatus,
  purpose: Nullable(MessagePurpose),
  to_number: Type.String(),
  from_number: Nullable(Type.String()),
  provider: Type.String({ description: 'who carried it: sim or twilio' }),
  provider_message_id: Nullable(Type.String({ description: 'the vendor\'s id of the text (Twilio\'s SM…/MM… sid)' })),
  error_code: Nullable(Type.String({ description: 'the vendor\'s error code of a failed or undelivered text' })),
  error_words: Nullable(Type.String({ description: 'error_code in plain words, for people' })),
  error_message: Nullable(Type.String({ description: 'the vendor\'s own message, as it sent it' })),
  segments: Nullable(Type.Integer({ description: 'SMS segments billed (GSM-7: 160 in one, 153 each when split; UCS-2: 70 / 67)' })),
  encoding: Nullable(StringEnum(['GSM-7', 'UCS-2'] as const)),
  cost: Nullable(Type.Number()),
  sent_by_user_id: Nullable(Type.Integer({ description: 'the account login that sent a manual text' })),
  sent_by_sub_user_id: Nullable(Type.Integer({ description: 'the sub-user that sent a manual text' })),
  sent_at: Nullable(DateTime),
  delivered_at: Nullable(DateTime),
  updated_at: DateTime,
}, { description: 'what the interface\'s Message does not name: the text\'s delivery and billing' });

export const TextMessage = Type.Object({
  id: Type.Integer(),
  message: Type.String({ description: 'the text itself' }),
  user_id: Type.Integer({ description: 'the account owner\'s id (also for a sub-user\'s text)' }),
  campaign_id: Type.Integer(),
  contact_id: Type.Integer(),
  call_id: Nullable(Type.Integer({ description: 'the call a follow-up or confirmation is about' })),
  role_id: StringEnum(MESSAGE_ROLES, { description: 'who wrote it: assistant (the AI or a template), contact (the person), operator (a login, by hand)' }),
  source: StringEnum(MESSAGE_SOURCES, { description: 'the channel' }),
  create_datetime: DateTime,
  message_data: MessageData,
});
export type TextMessage = Static<typeof TextMessage>;

export const MessagesList = Type.Object({
  data: Type.Array(TextMessage),
  count: Type.Integer({ description: 'total number of matching texts, not the page size; an estimate when count_exact is false' }),
  count_exact: Type.Boolean({ description: 'true while at most 1000 texts match (counted); false past that (the database\'s estimate)' }),
  pagination: Pagination,
});

const DateTimeQuery = (description: string) => Type.Optional(Type.Unsafe<string>({ type: 'string', format: 'date-time', description }));

export const MessagesQuery = Type.Object({
  skip: Skip,
  limit: Limit(20),
  campaign_id: Type.Optional(IdList('any of these campaigns')),
  contact_id: Type.Optional(Id),
  direction: Type.Optional(StringEnum(MESSAGE_DIRECTIONS)),
  source: Type.Optional(Type.Array(StringEnum(MESSAGE_SOURCES), { maxItems: 2, description: 'any of these channels' })),
  status: Type.Optional(Type.Array(MessageStatus, { maxItems: 8, description: 'any of these statuses' })),
  purpose: Type.Optional(Type.Array(MessagePurpose, { maxItems: 4, description: 'any of these purposes' })),
  create_datetime_from: DateTimeQuery('created at or after this (inclusive)'),
  create_datetime_to: DateTimeQuery('created at or before this (inclusive)'),
  message: Type.Optional(Type.String({ maxLength: 200, description: 'texts containing this, case-insensitive (% and _ match themselves)' })),
});
export type MessagesQuery = Static<typeof MessagesQuery>;

export const SendMessage = Type.Object({
  contact_id: Id,
  message: Type.String({ minLength: 1, maxLength: 1600, description: 'the text, as it will be sent (1600 characters: Twilio\'s limit, about 10 GSM-7 segments)' }),
});
export type SendMessage = Static<typeof SendMessage>;

export const MessageJob = Type.Object({
  id: Type.Integer(),
  campaign_id: Type.Integer(),
  contact_id: Type.Integer(),
  call_id: Nullable(Type.Integer()),
  purpose: MessagePurpose,
  body: Nullable(Type.String({ description: 'the text as given (an operator\'s); null: written when it is sent (AI or template)' })),
  status: MessageJobStatus,
  due_at: DateTime,
  reason: Nullable(Type.String({ description: 'why it waits, was skipped or cancelled' })),
  message_id: Nullable(Type.Integer({ description: 'the text it became, once sent' })),
  sent_by_user_id: Nullable(Type.Integer()),
  sent_by_sub_user_id: Nullable(Type.Integer()),
  created_at: DateTime,
  updated_at: DateTime,
});
export type MessageJob = Static<typeof MessageJob>;

export const MessageJobsQuery = Type.Object({
  skip: Skip,
  limit: Limit(50),
  contact_id: Type.Optional(Id),
  campaign_id: Type.Optional(Id),
  status: Type.Optional(Type.Array(MessageJobStatus, { maxItems: 5, description: 'any of these statuses' })),
});
export type MessageJobsQuery = Static<typeof MessageJobsQuery>;

export const MessageJobsList = Type.Object({
  data: Type.Array(MessageJob),
  count: Type.Integer({ description: 'total number of matching jobs (counted up to 1000, then estimated)' }),
  count_exact: Type.Boolean(),
});

export const DraftRequest = Type.Object({
  contact_id: Id,
  call_id: Type.Optional(Nullable(Id, { description: 'the call to write about; omitted or null: the contact\'s latest call, if any' })),
  purpose: Type.Optional(MessagePurpose),
  prompt: Type.Optional(Nullable(Type.String({ maxLength: 4000, description: 'preview with this prompt instead of the campaign\'s saved one' }))),
  template: Type.Optional(Nullable(Type.String({ maxLength: 1600, description: 'preview with this template instead of the campaign\'s saved one' }))),
});
export type DraftRequest = Static<typeof DraftRequest>;

export const Draft = Type.Object({
  message: Type.String(),
  by: StringEnum(['llm', 'template'] as const, { description: 'llm when LLM_BASE_URL is set and its answer passed the checks, else template' }),
  segments: Type.Integer(),
  encoding: StringEnum(['GSM-7', 'UCS-2'] as const),
});

export const TimelineItem = Type.Object({
  kind: StringEnum(['call', 'message'] as const),
  at: DateTime,
  call: Type.Optional(Type.Object({
    id: Type.Integer(),
    status: Type.String(),
    action_status: Nullable(Type.String()),
    call_type: Nullable(Type.String()),
    call_duration: Nullable(Type.Integer({ description: 'seconds' })),
    start_time: Nullable(DateTime),
    end_time: Nullable(DateTime),
  })),
  message: Type.Optional(TextMessage),
});

export const Timeline = Type.Object({
  contact_id: Type.Integer(),
  data: Type.Array(TimelineItem),
  truncated: Type.Boolean({ description: 'true when the contact has more than `limit` calls or texts: the oldest were left out' }),
});

export const TimelineQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 200, description: 'the newest this many of each kind' }),
});

import { Type, type Static } from 'typebox';
import { CONTACT_DATA_LIMIT_NOTE } from '../../shared/contact-data-limit.ts';
import { NEXT_ACTION_CODES } from '../contact-lifecycle/next-action.ts';
import { CountFilter, DateTime, Id, IdList, Limit, Nullable, Skip, StringEnum } from '../../http/schemas.ts';

export const CONTACT_STATUSES = [
  'new',
  'in progress',
  'finished',
  'failed',
  'busy',
  'not_reached',
  'invalid_number',
  'do_not_disturb',
  'paused',
  'added_to_queue',
  'call_scheduled',
  'no_answer',
  'awaiting_queue',
] as const;
export const ContactStatus = StringEnum(CONTACT_STATUSES, { description: 'ContactStatus' });
export type ContactStatus = Static<typeof ContactStatus>;

/** Why the contact waits and what comes next, for code to match on (next_action_reason is the sentence for people). */
export const NextActionCode = StringEnum(NEXT_ACTION_CODES, {
  description: 'NextActionCode: the machine-readable kind of next_action_reason, set by the service with it (not an interface field; added by '
    + 'this service). queued, calling, inbound_call, retry_scheduled, outside_window (calling window, schedule or quiet hours closed), '
    + 'no_window (they never open), frequency_cap, caller_id_cap, number_busy, account_concurrency (the account\'s concurrent calls are in use, '
    + 'its inbound reserve kept: still due; GET /api/v1/compliance/capacity), vendor_pacing, vendor_refused, campaign_paused, '
    + 'campaign_archived, campaign_inbound, usage_limit, insufficient_funds, requeued (the campaign cause it waited for is gone), '
    + 'suppressed (do-not-call list or opt-out), completed (no further call), set_by_user (status or next step written through the API), callback_requested (the person asked by text to be called back at a time).',
});

export const CONTACT_CREATION_METHODS = ['manual', 'import', 'integration', 'external_api', 'integration_messaging'] as const;
export const ContactCreationMethod = StringEnum(CONTACT_CREATION_METHODS, { description: 'ContactCreationMethod' });
export type ContactCreationMethod = Static<typeof ContactCreationMethod>;

const ContactData = Type.Object({}, { additionalProperties: true, description: `free-form contact fields; ${CONTACT_DATA_LIMIT_NOTE}` });
const TimeZone = Type.String({ maxLength: 64, description: 'IANA zone name, e.g. Europe/Berlin' });

export const Contact = Type.Object({
  id: Type.Integer(),
  campaign_id: Type.Integer(),
  phone_number: Type.String({ description: 'E.164' }),
  status: ContactStatus,
  contact_data: Type.Optional(Nullable(ContactData)),
  timezone: Type.Optional(Nullable(Type.String({ description: 'IANA zone name' }))),
  source: Type.Optional(Nullable(Type.String())),
  creation_method: Type.Optional(Nullable(ContactCreationMethod)),
  campaign_title: Type.Optional(Nullable(Type.String())),
  calls_attempts: Type.Optional(Nullable(Type.Integer())),
  message_attempts: Type.Optional(Nullable(Type.Integer())),
  next_action_time: Type.Optional(Nullable(DateTime)),
  next_action_reason: Type.Optional(Nullable(Type.String())),
  next_action_code: Type.Optional(Nullable(NextActionCode)),
  created_at: Type.Optional(Nullable(DateTime)),
  updated_at: Type.Optional(Nullable(DateTime)),
});

export const ContactsList = Type.Object({
  data: Type.Array(Contact),
  count: Type.Integer({ description: 'total number of matching contacts, not the page size; an estimate when count_exact is false' }),
  count_exact: Type.Optional(
    Type.Boolean({
      description:
        'true when count is exact: with campaign_id (or the campaign list) while at most 100000 contacts match, otherwise while at most 1000 match; ' +
        "false when more match and count is the database's estimate",
    }),
  ),
});

export const ContactCreate = Type.Object({
  status: ContactStatus,
  campaign_id: Id,
  phone_number: Type.String({ maxLength: 64, description: 'any common format; stored as E.164 (numbers without + are read in DEFAULT_COUNTRY)' }),
  contact_data: Type.Optional(Nullable(ContactData)),
  timezone: Type.Optional(Nullable(TimeZone)),
  source: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  creation_method: Type.Optional(Nullable(ContactCreationMethod)),
  next_action_time: Type.Optional(Nullable(DateTime)),
  next_action_reason: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  created_at: Type.Optional(Nullable(DateTime)),
  updated_at: Type.Optional(Nullable(DateTime)),
});
export type ContactCreate = Static<typeof ContactCreate>;

export const ContactUpdate = Type.Object({
  status: Type.Optional(ContactStatus),
  phone_number: Type.Optional(Type.String({ maxLength: 64 })),
  contact_data: Type.Optional(Nullable(ContactData)),
  timezone: Type.Optional(Nullable(TimeZone)),
  source: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  next_action_time: Type.Optional(Nullable(DateTime)),
  next_action_reason: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
});
export type ContactUpdate = Static<typeof ContactUpdate>;

const campaignFilters = {
  phone_number: Type.Optional(Type.String({ maxLength: 64, description: 'exact number; normalised to E.164 when it parses as one, else matched as written' })),
  status: Type.Optional(Type.Array(ContactStatus, { description: 'any of these statuses (repeated keys or a comma list)' })),
  calls_attempts_from: Type.Optional(CountFilter('calls_attempts >= this (inclusive)')),
  calls_attempts_to: Type.Optional(CountFilter('calls_attempts <= this (inclusive)')),
};

export const ContactsQuery = Type.Object({
  skip: Skip,
  limit: Limit(100),
  campaign_id: Type.Optional(IdList('any of these campaigns')),
  ...campaignFilters,
  created_at_from: Type.Optional(Type.Unsafe<string>({ type: 'string', format: 'date-time', description: 'created_at >= this (inclusive)' })),
  created_at_to: Type.Optional(Type.Unsafe<string>({ type: 'string', format: 'date-time', description: 'created_at <= this (inclusive)' })),
});
export type ContactsQuery = Static<typeof ContactsQuery>;

export const CampaignContactsQuery = Type.Object({ skip: Skip, limit: Limit(400), ...campaignFilters });
export type CampaignContactsQuery = Static<typeof CampaignContactsQuery>;


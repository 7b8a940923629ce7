import { Type, type Static, type TSchema } from 'typebox';
import { DateTime, Id, Limit, Nullable, Skip, StringEnum } from '../../http/schemas.ts';
import { WALL_CLOCK_TIME } from '../../http/validators.ts';
import { PhoneNumber } from '../phone-numbers/phone-numbers.schemas.ts';
import { WorkSchedule } from '../contact-lifecycle/work-schedule.ts';

export const CAMPAIGN_TYPES = ['Outbound', 'Inbound'] as const;
export const LIMIT_UNITS = ['contacts', 'minutes', 'cost'] as const;
export const PROMPT_STATUSES = ['pending', 'approved', 'rejected', 'auto_approved'] as const;
export const CampaignType = StringEnum(CAMPAIGN_TYPES);
export const LimitUnit = StringEnum(LIMIT_UNITS, { description: 'what limit_value counts: contacts called, call minutes, or cost (the cost of ended calls plus the cost of the outbound text messages sent in the limit period, as the vendors report them)' });
export const PromptHistoryStatus = StringEnum(PROMPT_STATUSES);

export const SubUserBrief = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  full_name: Type.Optional(Nullable(Type.String())),
  email: Type.Optional(Nullable(Type.String())),
});

const OptString = Type.Optional(Nullable(Type.String()));
const OptInt = Type.Optional(Nullable(Type.Integer()));
export const PromptHistory = Type.Object(
  {
    id: Type.Integer(),
    campaign_id: Type.Integer(),
    prompt_data: Type.Object({}, { additionalProperties: true, description: '{"prompt": <the campaign_data.prompt value proposed>}; prompt is null when the prompt was removed' }),
    created_at: DateTime,
    status: PromptHistoryStatus,
    created_by_sub_user_id: OptInt,
    created_by_user_id: OptInt,
    created_by_user_email: OptString,
    created_by_user_full_name: OptString,
    created_by_sub_user_email: OptString,
    created_by_sub_user_full_name: OptString,
    approved_by_user_id: OptInt,
    approved_by_sub_user_id: OptInt,
    approved_at: Type.Optional(Nullable(DateTime)),
    approval_comment: OptString,
    approved_by_user_email: OptString,
    approved_by_user_full_name: OptString,
    approved_by_sub_user_email: OptString,
    approved_by_sub_user_full_name: OptString,
  },
  {
    description:
      'One change of campaign_data.prompt. Made by the account owner: auto_approved. Made by a sub-user: pending until the owner approves or rejects it ' +
      '(the approved_by_* fields then name who decided, for a rejection too). Calls use the newest approved or auto_approved entry.',
  },
);

// ---- Field rules, written once for the create body, the update body and the response (so OpenAPI shows them). ----

// format: time is this API's wall-clock time of day, HH:MM or HH:MM:SS (http/validators.ts); the pattern says the same to clients.
const TimeOfDay = (description: string) => Type.String({ format: 'time', pattern: WALL_CLOCK_TIME.source, description });
const FROM_TIME =
  'Earliest local time of day (in the contact\'s time zone) a call may start, HH:MM or HH:MM:SS (answered as HH:MM:SS). ' +
  'When call_allowed_from_time > call_allowed_to_time the window crosses midnight (22:00 to 06:00 = night); equal values are rejected (422). ' +
  'Only one of the two set: the window runs from it to midnight, or from midnight to it. null = no time-of-day restriction.';
const TO_TIME = 'Latest local time of day a call may start (exclusive). See call_allowed_from_time.';

const CAMPAIGN_DATA = 'Free-form campaign settings. If it has `prompt`, that must be a string or an object.';
const ARCHIVE = 'Archived campaigns are left out of the list unless include_archived=true.';
const PAUSED = 'A paused campaign places no calls.';
const CONCURRENCY = 'Calls of this campaign in progress at once, 0 to 10000; 0 or null = no campaign limit (the account\'s and provider\'s limits still apply).';
const AUTO_CALLS = 'Queue a contact for calling as soon as it is added (one added with status new or awaiting_queue; one added with an outcome such as finished keeps it).';
const CampaignData = Type.Object(
  {
    prompt: Type.Optional(
      Type.Union([Type.String(), Type.Object({}, { additionalProperties: true })], {
        description:
          'The assistant\'s instructions (text, or an object for structured prompts). Every change records a PromptHistory entry; ' +
          'calls use the newest approved one, so a sub-user\'s pending change is stored here but not used until the owner approves it.',
      }),
    ),
  },
  { additionalProperties: true, description: CAMPAIGN_DATA },
);

const fields = {
  title: Type.String({ minLength: 1, maxLength: 255 }),
  description: Nullable(Type.String()),
  campaign_type: CampaignType,
  campaign_data: Nullable(CampaignData),
  campaign_phone: Nullable(Type.String({ maxLength: 255 })),
  campaign_sip: Nullable(Type.String({
    maxLength: 1000,
    description:
      'The SIP route of the campaign: the sip: or sips: URI of the customer\'s trunk or PBX (host, optional port and ;transport=udp|tcp|tls|ws|wss; ' +
      'a user part is allowed, the contact\'s number replaces it on outbound calls). Refused with 422 naming this field: not a SIP URI, a password written into the URI ' +
      '(a trunk\'s username and password belong in a voice connection, sealed at rest), URI headers, a private, loopback, link-local or local-name host. ' +
      'A host name is resolved by the voice vendor when a call is placed, not when the campaign is saved. ' +
      'Outbound calls go through the trunk on the campaign\'s vendor: Twilio dials this URI with the contact\'s number; Vapi and Retell call from a number of the ' +
      'campaign\'s SIP trunk (PUT /api/v1/campaigns/{id}/sip-trunk) that the service registers with them once (a Vapi BYO number bound to a byo-sip-trunk credential, ' +
      'a Retell number imported with this host as its termination URI). For an Inbound campaign it is also the SIP address callers or the customer\'s PBX reach it on: ' +
      'a call to that address (a Twilio SIP Domain\'s call to sip:user@host, the simulator\'s POST /api/v1/voice/sim/inbound with `to` a SIP URI) is answered by the ' +
      'campaign\'s assistant like a call to its number; addresses are compared by user@host, without case, ignoring the scheme, port and parameters.',
  })),
  assistant_id: Nullable({
    ...Id,
    description:
      'An assistant of this account (/api/v1/assistants): who talks on the campaign\'s calls, through its provider. Any other id, another account\'s included, is a 422. ' +
      'null = the provider configured by VOICE_PROVIDER with the campaign\'s approved prompt.',
  }),
  max_call_attempts: Nullable(Type.Integer({ minimum: 1, maximum: 100 }), {
    description: 'Calls placed to one contact at most (the first call included), 1 to 100; null = 1 (no retries).',
  }),
  concurrent_call_limit: Nullable(Type.Integer({ minimum: 0, maximum: 10000 }), { description: CONCURRENCY }),
  call_interval: Nullable(Type.Array(Type.Integer({ minimum: 1, maximum: 10080 }), { maxItems: 50 }), {
    description:
      'Retry delays in minutes (each 1 to 10080, at most 50 items): the n-th retry waits call_interval[n-1] minutes after the previous attempt; ' +
      'the last value repeats for later retries; null or [] = 60 minutes.',
  }),
  call_allowed_from_time: Nullable(TimeOfDay(FROM_TIME)),
  call_allowed_to_time: Nullable(TimeOfDay(TO_TIME)),
  work_schedule: Nullable(WorkSchedule),
  auto_calls: Type.Boolean({ description: AUTO_CALLS }),
  is_auto_ai_message: Type.Boolean(),
  is_archive: Type.Boolean({ description: ARCHIVE }),
  is_paused: Type.Boolean({ description: PAUSED }),
  limit_start: Nullable(DateTime, { description: 'Start of the period limit_usage is counted in; null = since the campaign began. Must be earlier than limit_end.' }),
  limit_end: Nullable(DateTime, { description: 'End of the usage period; null = open-ended.' }),
  limit_value: Nullable(Type.Number({ minimum: 0 }), { description: 'Usage limit (>= 0) in limit_unit; null = no limit. No calls start and no text messages are sent (they wait, as calls do, until the limit is lifted or its period ends) once limit_usage >= limit_value. With limit_unit cost, texts\' cost counts toward it.' }),
  limit_unit: Nullable(LimitUnit),
};

const READ_ONLY_USAGE = {
  limit_usage: Type.Optional(
    Nullable(Type.Number(), { description: 'Read-only: usage in limit_unit within limit_start..limit_end, kept current by the dialer and the text sender (contacts called, minutes, or cost of calls and outbound texts).' }),
  ),
  limit_reached: Type.Optional(Type.Boolean({ description: 'Read-only: limit_value is set and limit_usage >= limit_value. Recomputed when a limit field changes.' })),
};

const opt = <T extends TSchema>(s: T) => Type.Optional(s);

export const Campaign = Type.Object({
  id: Type.Integer(),
  owner_id: Type.Integer(),
  title: Type.String(),
  description: opt(fields.description),
  campaign_type: CampaignType,
  campaign_data: opt(Nullable(Type.Object({}, { additionalProperties: true, description: CAMPAIGN_DATA }))),
  campaign_phone: opt(Nullable(Type.String())),
  campaign_sip: opt(Nullable(Type.String())),
  assistant_id: opt(Nullable(Type.Integer(), { description: 'the account\'s assistant (/api/v1/assistants) its calls use; null = VOICE_PROVIDER with the approved prompt' })),
  max_call_attempts: opt(fields.max_call_attempts),
  concurrent_call_limit: opt(fields.concurrent_call_limit),
  call_interval: opt(fields.call_interval),
  phone_numbers: opt(Type.Array(PhoneNumber)),
  call_allowed_from_time: opt(Nullable(Type.String({ format: 'time', description: FROM_TIME }))),
  call_allowed_to_time: opt(Nullable(Type.String({ format: 'time', description: TO_TIME }))),
  work_schedule: opt(fields.work_schedule),
  auto_calls: opt(fields.auto_calls),
  is_auto_ai_message: opt(fields.is_auto_ai_message),
  is_archive: opt(fields.is_archive),
  is_paused: opt(fields.is_paused),
  limit_start: opt(fields.limit_start),
  limit_end: opt(fields.limit_end),
  limit_value: opt(fields.limit_value),
  limit_unit: opt(fields.limit_unit),
  ...READ_ONLY_USAGE,
  sub_users: opt(Type.Array(SubUserBrief, { description: 'sub-users granted this campaign' })),
  prompt_history: opt(Type.Array(PromptHistory, { description: 'newest first' })),
});
export type Campaign = Static<typeof Campaign>;

export const CampaignListItem = Type.Omit(Campaign, ['campaign_data', 'limit_start', 'limit_end', 'prompt_history']);

export const CampaignCreate = Type.Object(
  {
    title: fields.title,
    campaign_type: fields.campaign_type,
    description: opt(fields.description),
    campaign_data: opt(fields.campaign_data),
    campaign_phone: opt(fields.campaign_phone),
    campaign_sip: opt(fields.campaign_sip),
    assistant_id: opt(fields.assistant_id),
    max_call_attempts: opt(fields.max_call_attempts),
    concurrent_call_limit: opt(Nullable(Type.Integer({ minimum: 0, maximum: 10000 }), { description: CONCURRENCY, default: 0 })),
    call_interval: opt(fields.call_interval),
    call_allowed_from_time: opt(fields.call_allowed_from_time),
    call_allowed_to_time: opt(fields.call_allowed_to_time),
    work_schedule: opt(fields.work_schedule),
    // Optional with their defaults (the API's create body lists them as optional; the defaults fill them in).
    auto_calls: Type.Optional(Type.Boolean({ description: AUTO_CALLS, default: false })),
    is_auto_ai_message: Type.Optional(Type.Boolean({ default: false })),
    is_archive: Type.Optional(Type.Boolean({ description: ARCHIVE, default: false })),
    is_paused: Type.Optional(Type.Boolean({ description: PAUSED, default: false })),
    limit_start: opt(fields.limit_start),
    limit_end: opt(fields.limit_end),
    limit_value: opt(fields.limit_value),
    limit_unit: opt(fields.limit_unit),
  },
  { additionalProperties: false, description: 'limit_usage and limit_reached are read-only and ignored here.' },
);
export type CampaignCreate = Static<typeof CampaignCreate>;

const KEEP = ' null = leave unchanged.';
export const CampaignUpdate = Type.Object(
  {
    title: opt(Nullable(fields.title, { description: `Campaign title.${KEEP}` })),
    campaign_type: opt(Nullable(CampaignType, { description: `Outbound or Inbound.${KEEP}` })),
    description: opt(fields.description),
    campaign_data: opt(fields.campaign_data),
    campaign_phone: opt(fields.campaign_phone),
    campaign_sip: opt(fields.campaign_sip),
    assistant_id: opt(fields.assistant_id),
    max_call_attempts: opt(fields.max_call_attempts),
    concurrent_call_limit: opt(fields.concurrent_call_limit),
    call_interval: opt(fields.call_interval),
    call_allowed_from_time: opt(fields.call_allowed_from_time),
    call_allowed_to_time: opt(fields.call_allowed_to_time),
    work_schedule: opt(fields.work_schedule),
    auto_calls: opt(fields.auto_calls),
    is_auto_ai_message: opt(fields.is_auto_ai_message),
    is_archive: opt(Nullable(Type.Boolean(), { description: `${ARCHIVE}${KEEP}` })),
    is_paused: opt(Nullable(Type.Boolean(), { description: `${PAUSED}${KEEP}` })),
    limit_start: opt(fields.limit_start),
    limit_end: opt(fields.limit_end),
    limit_value: opt(fields.limit_value),
    limit_unit: opt(fields.limit_unit),
  },
  {
    additionalProperties: false,
    description:
      'Every field optional: an omitted field is unchanged. title, campaign_type, is_archive and is_paused may be null, which also leaves them unchanged ' +
      '(they cannot be empty); for the other fields null clears the value. limit_usage and limit_reached are read-only.',
  },
);
export type CampaignUpdate = Static<typeof CampaignUpdate>;

export const CampaignListQuery = Type.Object({
  skip: Skip,
  limit: Limit(100),
  title: Type.Optional(Type.String({ maxLength: 255, description: 'case-insensitive substring of the title; % and _ match themselves' })),
  id: Type.Optional(Type.Array(Id, { description: 'exact campaign ids (repeated keys or a comma list)' })),
  sub_user_id: Type.Optional(
    Type.Array(Id, { description: 'campaigns any of these sub-users can access; only sub-users of your account count (others match nothing)' }),
  ),
  include_archived: Nullable(Type.Boolean(), { default: false, description: 'include archived campaigns (default false; null or empty = false)' }),
});
export type CampaignListQuery = Static<typeof CampaignListQuery>;

export const CampaignList = Type.Object({
  data: Type.Array(CampaignListItem),
  count: Type.Integer({ description: 'total number of matches, not the page size' }),
});

export const PromptDecisionParams = Type.Object({ id: Id, history_id: Id });
export const PromptDecisionBody = Type.Object(
  { comment: Type.Optional(Nullable(Type.String({ maxLength: 5000, description: 'stored as approval_comment' }))) },
  { additionalProperties: false },
);

import { Type, type Static } from 'typebox';
import { CountFilter, DateTime, Id, IdList, Limit, Nullable, Skip, StringEnum } from '../../http/schemas.ts';
import { PROBLEM_TAGS } from '../quality/scorecards/scorecard-rules.ts';

export const CALL_STATUSES = [
  'new',
  'in progress',
  'finished',
  'failed',
  'busy_or_rejected',
  'invalid number',
  'insufficient funds',
  'rejected',
  'terminated',
  'unavailable',
  'voicemail',
  'silence',
] as const;
export const CallStatus = StringEnum(CALL_STATUSES, { description: 'CallStatus' });
export type CallStatus = Static<typeof CallStatus>;

export const ACTION_STATUSES = ['transferred', 'scheduled', 'interested'] as const;
export const ActionStatus = StringEnum(ACTION_STATUSES, { description: 'ActionStatus' });

export const CALL_TYPES = ['outbound', 'inbound'] as const;
export const CallType = StringEnum(CALL_TYPES, { description: 'CallType' });

export const CALL_ENDED_BY = ['HUMAN', 'AI'] as const;
export const CallEndedBy = StringEnum(CALL_ENDED_BY, { description: 'CallEndedBy' });

const JsonObject = Type.Object({}, { additionalProperties: true });

export const Call = Type.Object({
  id: Type.Integer(),
  contact_id: Type.Integer(),
  status: CallStatus,
  is_archive: Type.Boolean(),
  action_status: Type.Optional(Nullable(ActionStatus)),
  action_status_reason: Type.Optional(Nullable(Type.String())),
  from_number: Type.Optional(Nullable(Type.String())),
  to_number: Type.Optional(Nullable(Type.String())),
  start_time: Type.Optional(Nullable(DateTime)),
  end_time: Type.Optional(Nullable(DateTime)),
  cost: Type.Optional(Nullable(Type.Number())),
  call_duration: Type.Optional(Nullable(Type.Integer({ description: 'seconds' }))),
  external_session_id: Type.Optional(Nullable(Type.String({ description: "the voice provider's id of the call, from the moment the provider accepts it (call_data.provider_call_id holds it too once the call has ended)" }))),
  record_url: Type.Optional(Nullable(Type.String())),
  call_data: Type.Optional(Nullable(JsonObject)),
  contact_data: Type.Optional(Nullable(JsonObject)),
  campaign_title: Type.Optional(Nullable(Type.String({ description: "the campaign's current title" }))),
  call_type: Type.Optional(Nullable(CallType)),
  owner_id: Type.Optional(Nullable(Type.Integer())),
  call_ended_by: Type.Optional(Nullable(CallEndedBy)),
  call_ended_by_reason: Type.Optional(Nullable(Type.String())),
});
export type CallView = Static<typeof Call>;

export const Pagination = Type.Object({
  current_page: Type.Integer({ description: 'floor(skip / limit) + 1' }),
  total_pages: Type.Integer({ description: 'ceil(count / limit)' }),
  total_count: Type.Integer({ description: 'same as count' }),
});

export const CallsList = Type.Object({
  data: Type.Array(Call),
  count: Type.Integer({ description: 'total number of matching calls, not the page size; an estimate when count_exact is false' }),
  count_exact: Type.Optional(
    Type.Boolean({
      description:
        'true when count is exact: always without filters or with only status and campaign_id (kept per account, campaign and status), ' +
        'and with other filters while at most 1000 calls match; false when more match and count is the database\'s estimate',
    }),
  ),
  pagination: Pagination,
});

const DateTimeQuery = (description: string) => Type.Optional(Type.Unsafe<string>({ type: 'string', format: 'date-time', description }));

export const CallsQuery = Type.Object({
  skip: Skip,
  limit: Limit(20),
  after_id: Type.Optional({
    ...Id,
    description: 'keyset pagination: only calls with an id below this one (pass the last id of the previous page); skip then counts from there. A deep page costs what the first does',
  }),
  phone_number: Type.Optional(Type.String({ maxLength: 64, description: 'destination number (to_number), exact; normalised to E.164 when it parses as one, else matched as written' })),
  from_number: Type.Optional(Type.String({ maxLength: 64, description: 'caller number, exact; normalised like phone_number' })),
  status: Type.Optional(Type.Array(CallStatus, { description: 'any of these statuses' })),
  action_status: Type.Optional(Type.Array(ActionStatus, { description: 'any of these outcomes' })),
  start_time_from: DateTimeQuery('start_time >= this (inclusive)'),
  start_time_to: DateTimeQuery('start_time <= this (inclusive)'),
  end_time_from: DateTimeQuery('end_time >= this (inclusive)'),
  end_time_to: DateTimeQuery('end_time <= this (inclusive)'),
  duration_from: Type.Optional(CountFilter('call_duration (seconds) >= this (inclusive)')),
  duration_to: Type.Optional(CountFilter('call_duration (seconds) <= this (inclusive)')),
  cost_from: Type.Optional(Type.Number({ minimum: -1e12, maximum: 1e12, description: 'cost >= this (inclusive)' })),
  cost_to: Type.Optional(Type.Number({ minimum: -1e12, maximum: 1e12, description: 'cost <= this (inclusive)' })),
  campaign_id: Type.Optional(IdList('any of these campaigns')),
  contact_id: Type.Optional(Id),
  call_id: Type.Optional({ ...Id, description: 'the call id' }),
  call_type: Type.Optional(Type.String({ maxLength: 64, description: 'exact call_type (outbound, inbound)' })),
  score_min: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'only scored calls whose score (0–100, the campaign\'s scorecard) is >= this (inclusive)' })),
  score_max: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'only scored calls whose score is <= this (inclusive)' })),
  score_tag: Type.Optional(StringEnum(PROBLEM_TAGS, { description: 'only scored calls where the judge found this problem tag' })),
  call_data: Type.Optional(
    Type.String({
      maxLength: 500,
      description:
        'case-insensitive search in the call data JSON text (keys and values): a call matches when it has a word starting with each word of the text ' +
        'and contains the text itself; % and _ are literal',
    }),
  ),
});
export type CallsQuery = Static<typeof CallsQuery>;

import { Type, type Static } from 'typebox';
import { DateTime, Id, Nullable, StringEnum } from '../../http/schemas.ts';

export const CALL_TYPE_FILTERS = ['outbound', 'inbound', 'none'] as const;
export const METRICS = ['calls', 'cost', 'duration', 'successful'] as const;
export const GRANULARITIES = ['hour', 'day', 'week', 'month'] as const;
/** The API's CallStatus and ActionStatus values, listed in this order (zeros included) in the breakdowns. */
export const CALL_STATUSES = ['new', 'in progress', 'finished', 'failed', 'busy_or_rejected', 'invalid number', 'insufficient funds', 'rejected', 'terminated', 'unavailable', 'voicemail', 'silence'] as const;
export const ACTION_STATUSES = ['interested', 'scheduled', 'transferred'] as const;
export const SUCCESS_ACTION_STATUSES = ACTION_STATUSES;

export type Metric = (typeof METRICS)[number];
export type Granularity = (typeof GRANULARITIES)[number];
export type CallTypeFilter = (typeof CALL_TYPE_FILTERS)[number];

const PERIOD_RULE =
  'A call counts in the period when its start_time falls in the half-open range [start_date, end_date): adjacent periods and buckets tile without counting a call twice. Calls without a start_time are never counted. A period may span at most 10 years and lies between 1800-01-01 and 9000-01-01 (422 otherwise).';

const commonQuery = {
  start_date: Type.Optional(DateTime),
  end_date: Type.Optional(DateTime),
  campaign_id: Type.Optional(Type.Unsafe<number>({ ...Id, description: 'One campaign; default all campaigns visible to the caller (a sub-user: the campaigns granted to it). An unknown id, another account\'s campaign and (for a sub-user) a campaign not granted to it all answer the same 404 {"detail": "Campaign not found"}: a filter does not tell which ids exist.' })),
  call_types: Type.Optional(
    Type.Array(StringEnum(CALL_TYPE_FILTERS), {
      description: 'Keep only calls of these types; none = calls without a call type (test calls). Repeated keys or a comma list. Default: all calls.',
    }),
  ),
  timezone: Type.Optional(Type.String({ description: 'IANA zone for calendar buckets and hour of day (an extension of this service). Default UTC.', default: 'UTC' })),
};

export const DetailedQuery = Type.Object({
  ...commonQuery,
  compare_with_previous: Type.Boolean({ default: false, description: 'Add the same totals for the preceding period of equal length, [start - (end - start), start), and the change.' }),
});

export const TrendsQuery = Type.Object({
  ...commonQuery,
  metric: StringEnum(METRICS, {
    default: 'calls',
    description: 'calls = number of calls; cost = sum of cost; duration = sum of call_duration in seconds; successful = number of successful calls.',
  }),
  granularity: Type.Optional(
    StringEnum(GRANULARITIES, {
      description: 'Bucket size (an extension of this service). Default from the range: up to 2 days hour, up to 92 days day, longer month. Weeks start on Monday. At most 10,000 buckets.',
    }),
  ),
});

const Period = Type.Object({
  start: DateTime,
  end: DateTime,
  timezone: Type.String(),
});

export const Totals = Type.Object(
  {
    calls: Type.Integer({ description: 'Calls whose start_time falls in the period.' }),
    answered: Type.Integer({ description: 'Calls that connected: call_duration > 0.' }),
    finished: Type.Integer({ description: 'Calls with status finished (a completed conversation).' }),
    successful: Type.Integer({ description: 'Calls with status finished and action_status interested, scheduled or transferred.' }),
    success_rate: Nullable(Type.Number({ description: 'successful / calls, a fraction from 0 to 1; null when there are no calls.' })),
    total_duration: Type.Integer({ description: 'Sum of call_duration in seconds (null durations count 0).' }),
    average_duration: Nullable(Type.Number({ description: 'total_duration / answered in seconds; null when no call was answered.' })),
    total_cost: Type.Number({ description: 'Sum of cost as stored on calls (null costs count 0).' }),
    average_cost: Nullable(Type.Number({ description: 'total_cost / calls; null when there are no calls.' })),
    unique_contacts: Type.Integer({ description: 'Distinct contacts among the calls.' }),
  },
  { description: 'Figures over the period.' },
);
export type TotalsT = Static<typeof Totals>;
export const TOTAL_KEYS = Object.keys(Totals.properties) as (keyof TotalsT)[];

export const Texts = Type.Object(
  {
    sent: Type.Integer({ description: 'Outbound texts the vendor accepted (it gave the text an id or a status past sending): queued, sent, delivered, undelivered and read ones. A send the vendor refused at once, or whose answer was lost, is not counted.' }),
    delivered: Type.Integer({ description: 'Outbound texts with status delivered or read.' }),
    failed: Type.Integer({ description: 'Outbound texts with status failed or undelivered (a send the vendor refused included).' }),
    replies: Type.Integer({ description: 'Inbound texts received (from contacts of the campaigns in scope, a first text from a new number included).' }),
    replied_contacts: Type.Integer({ description: 'Distinct contacts who sent at least one inbound text.' }),
    opt_outs_by_text: Type.Integer({ description: 'Distinct contacts whose number a text put on the do-not-call list: a STOP reply, or the vendor reporting the number unsubscribed (Twilio 21610) on an outbound text; counted in the period of that text. A contact who sends STOP twice counts once; a number already suppressed otherwise (by a person, an import, a call) does not count.' }),
    cost: Type.Number({ description: 'Sum of cost of outbound texts as the vendor reported it (null costs count 0), to the cent. Not included in totals.total_cost, which is the calls\' cost.' }),
    reached_after_unanswered_calls: Type.Integer({ description: 'Contacts who texted in after a call of the period although none of their calls in the period was answered (call_duration > 0): reached by text where the calls failed.' }),
  },
  {
    description:
      'Text messages (SMS, WhatsApp) of the period: a text counts when its row was written (created_at: the send of an outbound text, the arrival of an inbound one), in the half-open period like calls. The caller\'s campaigns and campaign_id apply; call_types does not (texts have no call type).',
  },
);
export type TextsT = Static<typeof Texts>;

const Change = Type.Object({
  absolute: Nullable(Type.Number({ description: 'current - previous; null when either is null.' })),
  percent: Nullable(Type.Number({ description: '(current - previous) / previous * 100; null when previous is 0 or null.' })),
});

export const DetailedResponse = Type.Object({
  period: Period,
  totals: Totals,
  by_status: Type.Array(Type.Object({ status: Type.String(), count: Type.Integer() }), {
    description: 'Every CallStatus value in the API\'s order, zeros included, then any other stored status.',
  }),
  by_action_status: Type.Array(Type.Object({ action_status: Nullable(Type.String()), count: Type.Integer() }), {
    description: 'interested, scheduled, transferred, then null (no action status); zeros included.',
  }),
  by_call_type: Type.Array(Type.Object({ call_type: Nullable(Type.String()), count: Type.Integer() }), {
    description: 'outbound, inbound, then null (test calls without a type); zeros included.',
  }),
  by_campaign: Type.Array(
    Type.Object({
      campaign_id: Type.Integer(),
      campaign_title: Nullable(Type.String()),
      calls: Type.Integer(),
      successful: Type.Integer(),
      total_cost: Type.Number(),
      total_duration: Type.Integer(),
    }),
    { description: 'Campaigns with at least one call in the period, most calls first (then by id).' },
  ),
  by_hour: Type.Array(Type.Object({ hour: Type.Integer({ minimum: 0, maximum: 23 }), count: Type.Integer(), successful: Type.Integer() }), {
    description: 'Hour of day of start_time in the requested timezone, 0 to 23, all 24 present.',
  }),
  texts: Texts,
  previous: Type.Optional(Type.Object({ period: Period, totals: Totals, texts: Texts }, { description: 'Only when compare_with_previous is true.' })),
  change: Type.Optional(
    Type.Object(
      {
        ...(Object.fromEntries(Object.keys(Totals.properties).map((key) => [key, Change])) as Record<keyof TotalsT, typeof Change>),
        texts: Type.Object(Object.fromEntries(Object.keys(Texts.properties).map((key) => [key, Change])) as Record<keyof TextsT, typeof Change>, {
          description: 'The change of every texts figure against previous.texts.',
        }),
      },
      { description: 'Only when compare_with_previous is true: the change of every totals field against previous.totals, and of every texts figure under texts.' },
    ),
  ),
});
export type DetailedResponseT = Static<typeof DetailedResponse>;

export const TrendsResponse = Type.Object({
  metric: StringEnum(METRICS),
  granularity: StringEnum(GRANULARITIES),
  timezone: Type.String(),
  period: Period,
  buckets: Type.Array(
    Type.Object({ start: DateTime, end: DateTime, value: Type.Number() }),
    { description: 'Every bucket from the one holding start_date to the one holding the last instant before end_date, zeros included. Buckets follow calendar boundaries in the timezone (so a day can be 23 or 25 hours long across a DST change); the first and last count only the part inside the period.' },
  ),
  total: Type.Number({ description: 'The metric over the whole period (the sum of the buckets).' }),
});
export type TrendsResponseT = Static<typeof TrendsResponse>;

export const PERIOD_DESCRIPTION = PERIOD_RULE;

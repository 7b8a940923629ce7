import { Type, type Static } from 'typebox';
import { DateTime, Id, Limit, Nullable, Skip, StringEnum } from '../../http/schemas.ts';
import { HEALTH_DEFAULTS } from './number-health.rule.ts';

/** Number health as GET /api/v1/phone-numbers/health and GET/PUT /api/v1/phone-numbers/health-settings show it. */

export const HEALTH_RULE_DOC =
  'Number health: every 5 minutes, for each caller-ID number of the account (phone_numbers), the outbound calls from it that started in the last window_days ' +
  '(and since its last rest ended) are counted: calls that reached the network (finished, terminated, silence, busy_or_rejected, rejected, unavailable, voicemail; ' +
  'failed, invalid number and insufficient funds are a broken setup, not how people see the number), answered ones (finished, terminated, silence: someone picked up) ' +
  'and short ones (answered, under short_call_seconds of conversation: people who hang up at once). The account\'s figures are all its outbound calls of the window. ' +
  'A number with at least min_calls calls whose answer rate is under answer_rate_ratio × the account\'s, or whose short-call rate (of its answered calls) is at least ' +
  'short_call_ratio × the account\'s and 10 points above it, is rested for rest_hours: the dialer passes it over when it chooses a campaign\'s caller ID, and the call\'s ' +
  'call_data.caller_id.reason says so (e.g. "same area code as the contact (1 number(s) rested: answer rate 4% vs account 31%)"). When every number of a campaign is ' +
  'rested the campaign still calls, from the least bad one (the highest answer rate), and the reason says that too. A number alone in its account is its average and ' +
  'never rests. When a rest ends, the number is judged afresh on its calls after it. Each rest and its end are audited (phone_number.rested, phone_number.unrested).';

const fields = {
  enabled: Type.Boolean({ description: `rest numbers automatically (default ${HEALTH_DEFAULTS.enabled}); switching it off ends every automatic and manual rest of the account` }),
  window_days: Type.Integer({ minimum: 1, maximum: 30, description: `the days of calls judged (default ${HEALTH_DEFAULTS.window_days}, from 1 to 30)` }),
  min_calls: Type.Integer({ minimum: 5, maximum: 100000, description: `calls from a number in the window before it is judged at all (default ${HEALTH_DEFAULTS.min_calls}, from 5)` }),
  answer_rate_ratio: Type.Number({ minimum: 0.05, maximum: 1, description: `a number is rested when its answer rate is under this fraction of the account's (default ${HEALTH_DEFAULTS.answer_rate_ratio}: half)` }),
  short_call_seconds: Type.Integer({ minimum: 1, maximum: 120, description: `an answered call under this many seconds of conversation is short (default ${HEALTH_DEFAULTS.short_call_seconds})` }),
  short_call_ratio: Type.Number({ minimum: 1.1, maximum: 20, description: `a number is rested when its short-call rate is at least this many times the account's and 10 points above it (default ${HEALTH_DEFAULTS.short_call_ratio})` }),
  rest_hours: Type.Integer({ minimum: 1, maximum: 720, description: `how long a rest lasts, in hours (default ${HEALTH_DEFAULTS.rest_hours}, up to 720)` }),
};

export const NumberHealthSettings = Type.Object({
  ...fields,
  updated_at: Nullable(DateTime, { description: 'when they were last saved; null: never, these are the defaults' }),
});
export type NumberHealthSettings = Static<typeof NumberHealthSettings>;

export const NumberHealthSettingsUpdate = Type.Object(
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as { [K in keyof typeof fields]: ReturnType<typeof Type.Optional<(typeof fields)[K]>> },
  { additionalProperties: false, description: 'Every field optional; omitted = unchanged.' },
);
export type NumberHealthSettingsUpdate = Static<typeof NumberHealthSettingsUpdate>;

const Rate = (what: string) => Nullable(Type.Number({ minimum: 0, maximum: 1 }), { description: what });

const FiguresFields = {
  calls: Type.Integer({ minimum: 0, description: 'outbound calls of the window that reached the network' }),
  answered: Type.Integer({ minimum: 0, description: 'of them, answered (finished, terminated, silence)' }),
  short_calls: Type.Integer({ minimum: 0, description: 'of the answered, shorter than short_call_seconds' }),
  answer_rate: Rate('answered / calls; null without calls'),
  short_call_rate: Rate('short_calls / answered; null without answered calls'),
};

export const AccountFigures = Type.Object(FiguresFields, { description: 'The account\'s figures of the last judgement (all its outbound calls of the window); zeros before the first.' });

export const NumberHealth = Type.Object({
  phone_number_id: Type.Integer(),
  phone_number: Type.String({ description: 'E.164' }),
  campaign_id: Nullable(Type.Integer()),
  campaign_title: Nullable(Type.String()),
  ...FiguresFields,
  state: StringEnum(['healthy', 'rested', 'not_judged'] as const, { description: 'rested: the dialer passes it over until rested_until; not_judged: the worker has not counted its calls yet' }),
  rested_until: Nullable(DateTime, { description: 'while rested, when the rest ends; null otherwise' }),
  rested_at: Nullable(DateTime, { description: 'when the current rest began; null when not rested' }),
  rest_code: Nullable(StringEnum(['answer_rate', 'short_calls', 'manual'] as const), { description: 'why it is rested: answer_rate, short_calls (number health), manual (the owner)' }),
  rest_reason: Nullable(Type.String(), { description: 'the same for people, e.g. "answer rate 4% vs account 31%"; never parse it' }),
  judged_at: Nullable(DateTime, { description: 'when its figures were last counted' }),
});
export type NumberHealth = Static<typeof NumberHealth>;

export const NumberHealthList = Type.Object({
  account: AccountFigures,
  data: Type.Array(NumberHealth),
  count: Type.Integer({ description: 'total number of matches, not the page size' }),
});

export const NumberHealthListQuery = Type.Object({
  skip: Skip,
  limit: Limit(100),
  campaign_id: Type.Optional({ ...Id, description: 'only numbers assigned to this campaign (a campaign you cannot see matches nothing)' }),
});
export type NumberHealthListQuery = Static<typeof NumberHealthListQuery>;

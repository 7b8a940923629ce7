import { Type, type Static } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../../http/schemas.ts';
import { CRITERION_TYPES, KEY_PATTERN, LIMITS, PROBLEM_TAGS, SCORE_DOC, TAG_QUESTIONS } from './scorecard-rules.ts';

export const SCORECARD_DOC =
  'A campaign\'s scorecard: criteria an LLM judges on each finished call\'s transcript (boolean yes/no, scale 1–5, or category with its options), ' +
  'each with a weight, and the problem tags it looks for (' + PROBLEM_TAGS.map((t) => `${t}: ${TAG_QUESTIONS[t]}`).join(' ') + '). ' +
  'A campaign without its own card has the default card (is_default true: four criteria and every tag). Scoring is OFF until the owner switches it ' +
  'on (enabled true): each judged call is one LLM request, a cost the owner chooses. It applies to calls that end from then on. Scoring runs after ' +
  'the call\'s webhook deliveries are done (sent, failed or skipped; at most 15 minutes later whatever they do), with a lower priority in the ' +
  'process\'s LLM budget (LLM_CONCURRENCY), so it never delays a customer\'s webhook. The judge is the webhook extraction\'s pipeline: one strict ' +
  'JSON schema field per criterion (boolean; integer 1–5; string enum of the options), a reason_<key> string per criterion and a tag_<tag> boolean ' +
  'per tag. Without an LLM (LLM_BASE_URL unset) a call\'s score says needs_model: transcripts carry no timings for an offline dead-air check, and no ' +
  'score is guessed; when the service next starts with a model, the calls of the last 7 days left needs_model are judged (older ones stay). ' +
  `${SCORE_DOC}`;

const Key = Type.String({ pattern: KEY_PATTERN, maxLength: LIMITS.key, description: 'lower-case letters, digits and _, starting with a letter; unique in the card; not starting with reason_ or tag_' });
const Question = Type.String({ minLength: 1, maxLength: LIMITS.question, pattern: '\\S', description: 'the question the judge answers, in plain words' });

export const CategoryOption = Type.Object({
  label: Type.String({ minLength: 1, maxLength: LIMITS.label, pattern: '\\S', description: 'what the judge answers; unique in the criterion' }),
  value: Type.Number({ minimum: 0, maximum: 1, description: 'what the option counts towards the score, 0 to 1' }),
}, { additionalProperties: false });

export const Criterion = Type.Object({
  key: Key,
  question: Question,
  type: StringEnum(CRITERION_TYPES, { description: 'boolean (yes 1, no 0), scale (1–5, counted (n − 1) / 4) or category (the option\'s value)' }),
  weight: Type.Number({ minimum: 0, maximum: LIMITS.weight, description: 'its weight in the score, 0 to 10; 0 records the answer without counting it' }),
  options: Type.Optional(Type.Array(CategoryOption, { minItems: 2, maxItems: LIMITS.options, description: 'category only (2 to 10 options); left out for the other types' })),
}, { additionalProperties: false });

const Tags = Type.Array(StringEnum(PROBLEM_TAGS), { maxItems: PROBLEM_TAGS.length, uniqueItems: true, description: `the problem tags the judge looks for: ${PROBLEM_TAGS.join(', ')}` });

export const Scorecard = Type.Object({
  campaign_id: Type.Integer(),
  enabled: Type.Boolean({ description: 'whether the campaign\'s finished calls are scored (default false)' }),
  is_default: Type.Boolean({ description: 'true: the campaign has no card of its own and this is the default card' }),
  criteria: Type.Array(Criterion),
  tags: Tags,
  updated_at: Nullable(DateTime, { description: 'when the card was last saved; null: never (the default card)' }),
});
export type ScorecardView = Static<typeof Scorecard>;

export const ScorecardUpdate = Type.Object({
  enabled: Type.Boolean({ description: 'switch scoring on or off for the campaign' }),
  criteria: Type.Optional(Type.Array(Criterion, { maxItems: LIMITS.criteria, description: `at most ${LIMITS.criteria}; left out: the card's current criteria (the default's for a campaign without a card)` })),
  tags: Type.Optional(Tags),
}, { additionalProperties: false });
export type ScorecardUpdate = Static<typeof ScorecardUpdate>;

export const SCORE_STATUSES = ['not_scored', 'pending', 'scored', 'failed', 'needs_model', 'no_transcript'] as const;

export const CallScore = Type.Object({
  call_id: Type.Integer(),
  campaign_id: Type.Integer(),
  prompt_history_id: Nullable(Type.Integer(), { description: 'the prompt version the call used' }),
  status: StringEnum(SCORE_STATUSES, {
    description: 'not_scored: the campaign\'s card was off when the call ended; pending: waiting for its webhooks or the LLM (or a retry after a failure, error says why); ' +
      'scored; failed: the judge failed three times (error); needs_model: no LLM was configured (judged when the service starts with one, within 7 days); no_transcript: nothing to judge',
  }),
  score: Nullable(Type.Number(), { description: 'weighted 0–100 (see the scorecard); null unless scored, or when no weighted criterion was answered' }),
  answers: Type.Array(Type.Object({
    key: Type.String(),
    question: Type.String(),
    type: Type.String(),
    weight: Type.Number(),
    answer: Type.Union([Type.Boolean(), Type.Number(), Type.String(), Type.Null()], { description: 'yes/no, 1–5 or the option; null: the judge could not tell' }),
    value: Nullable(Type.Number(), { description: '0–1 as counted in the score' }),
    reason: Nullable(Type.String()),
  })),
  tags: Type.Array(Type.String(), { description: 'the problem tags the judge found' }),
  method: Nullable(Type.String(), { description: 'how it was judged (llm:<model>)' }),
  error: Nullable(Type.String()),
  attempts: Type.Integer(),
  scored_at: Nullable(DateTime),
});
export type CallScoreView = Static<typeof CallScore>;

export const ScoreSummaryQuery = Type.Object({
  from: Type.Optional({ ...DateTime, description: 'calls scored at or after this time (default: 30 days before `to`)' }),
  to: Type.Optional({ ...DateTime, description: 'calls scored before this time (default: now)' }),
});

const Bucket = Type.Object({ from: Type.Number(), to: Type.Number(), calls: Type.Integer() });
export const ScoreSummary = Type.Object({
  campaign_id: Type.Integer(),
  from: DateTime,
  to: DateTime,
  scored: Type.Integer({ description: 'calls with a score in the period' }),
  average: Nullable(Type.Number(), { description: 'mean score, one decimal; null with no scored call' }),
  distribution: Type.Array(Bucket, { description: 'ten buckets of 10 points: [0,10), [10,20) … [90,100] (100 falls in the last)' }),
  trend: Type.Array(Type.Object({ day: Type.String({ description: 'UTC day, YYYY-MM-DD, of scored_at' }), calls: Type.Integer(), average: Type.Number() })),
  by_prompt_version: Type.Array(Type.Object({
    prompt_history_id: Nullable(Type.Integer(), { description: 'null: calls made without prompt history' }), calls: Type.Integer(), average: Type.Number(),
  })),
  tags: Type.Array(Type.Object({ tag: Type.String(), calls: Type.Integer() }), { description: 'scored calls per problem tag found' }),
  statuses: Type.Array(Type.Object({ status: Type.String(), calls: Type.Integer() }), { description: 'score rows per status for calls created in the period (pending, failed, needs_model…)' }),
});
export type ScoreSummaryView = Static<typeof ScoreSummary>;

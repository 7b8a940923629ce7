import { Type, type Static } from 'typebox';
import { DateTime, Id, Nullable, StringEnum } from '../../../http/schemas.ts';

/** Experiments as /api/v1/campaigns/{id}/experiments reads and writes them (issue 28). */

export const EXPERIMENT_STATUSES = ['draft', 'running', 'stopped'] as const;
export const VARIANT_KINDS = ['control', 'prompt', 'assistant'] as const;
export const MAX_VARIANTS = 3;
export const DEFAULT_MIN_CALLS = 100;
/** A variant whose probability to be best reaches this (and every variant has its minimum calls) is the winner. */
export const WINNER_PROBABILITY = 0.95;

export const ExperimentParams = Type.Object({ id: Id, experiment_id: Id });

const Weight = Type.Integer({ minimum: 1, maximum: 100, description: 'relative traffic weight, 1 to 100 (a share is weight / sum of weights; 50/50 and 1/1 split alike)' });

export const VariantInput = Type.Object({
  label: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'a name shown on the results; default "Variant N"' })),
  weight: Weight,
  prompt_history_id: Type.Optional(Id),
  prompt: Type.Optional(Type.String({ minLength: 1, maxLength: 20000, description: 'a new prompt text, written to the prompt history as a pending entry (never in force outside the experiment until approved or promoted)' })),
  assistant_id: Type.Optional(Id),
}, { additionalProperties: false, description: 'exactly one of prompt_history_id (a version of this campaign\'s prompt history, not rejected), prompt (a new text) or assistant_id (an assistant of the account on the same voice route as the campaign\'s assistant)' });

export const ExperimentCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 120 }),
  control_weight: Weight,
  min_calls_per_variant: Type.Optional(Type.Integer({ minimum: 10, maximum: 100000, default: DEFAULT_MIN_CALLS, description: `the stopping rule: ended calls each variant (control included) needs before a winner may be declared; default ${DEFAULT_MIN_CALLS}` })),
  variants: Type.Array(VariantInput, { minItems: 1, maxItems: MAX_VARIANTS }),
}, { additionalProperties: false });
export type ExperimentCreate = Static<typeof ExperimentCreate>;

export const Variant = Type.Object({
  id: Type.Integer(),
  position: Type.Integer({ description: '0: the control; 1 to 3: the variants in the order given' }),
  kind: StringEnum(VARIANT_KINDS),
  label: Type.String(),
  weight: Type.Integer(),
  share: Type.Number({ description: 'weight / sum of the weights: the expected fraction of contacts' }),
  prompt_history_id: Nullable(Type.Integer(), { description: 'the prompt version its calls use; the control\'s is fixed when the experiment starts (the approved entry then in force); an assistant variant uses the control\'s' }),
  assistant_id: Nullable(Type.Integer(), { description: 'an assistant variant\'s assistant; null: the campaign\'s' }),
});
export type Variant = Static<typeof Variant>;

export const Experiment = Type.Object({
  id: Type.Integer(),
  campaign_id: Type.Integer(),
  name: Type.String(),
  status: StringEnum(EXPERIMENT_STATUSES),
  min_calls_per_variant: Type.Integer(),
  created_at: DateTime,
  started_at: Nullable(DateTime),
  stopped_at: Nullable(DateTime),
  promoted_variant_id: Nullable(Type.Integer(), { description: 'the variant made live (promote); null: none' }),
  promoted_prompt_history_id: Nullable(Type.Integer(), { description: 'the approved prompt_history entry the promotion wrote; null for an assistant variant or none' }),
  promoted_at: Nullable(DateTime),
  variants: Type.Array(Variant),
});
export type Experiment = Static<typeof Experiment>;

export const ExperimentList = Type.Object({ data: Type.Array(Experiment, { description: 'newest first, at most 100' }) });

const Rate = (description: string) => Nullable(Type.Number({ description }));

export const FieldFill = Type.Object({
  name: Type.String({ description: 'a top-level field of the webhook payloads sent for the variant\'s calls' }),
  deliveries: Type.Integer({ description: 'payloads that had the field' }),
  filled_rate: Type.Number({ description: 'share of those payloads where it was neither null nor an empty string' }),
  true_rate: Nullable(Type.Number(), { description: 'for a boolean field, the share of its boolean values that were true; null otherwise' }),
});

export const VariantResult = Type.Object({
  variant_id: Type.Integer(),
  label: Type.String(),
  kind: StringEnum(VARIANT_KINDS),
  calls: Type.Integer({ description: 'ended calls (not in progress) of the variant' }),
  contacts: Type.Integer({ description: 'distinct contacts among them' }),
  reached_calls: Type.Integer({ description: 'calls that reached a person: call_duration > 0 (analytics\' answered)' }),
  reached_rate: Rate('reached_calls / calls; null without calls'),
  interested_contacts: Type.Integer({ description: 'contacts with at least one successful call: status finished and action_status interested, scheduled or transferred (analytics\' successful)' }),
  interested_rate: Rate('interested_contacts / contacts: the rate the experiment compares (per contact, the unit the split assigns)'),
  average_duration: Rate('average call_duration in seconds of the reached calls'),
  total_cost: Type.Number({ description: 'sum of cost as stored on the calls' }),
  cost_per_interested: Rate('total_cost / interested_contacts; null when none'),
  average_score: Rate('average scorecard score (0 to 100) of the scored calls; null when none is scored or scorecards are not installed'),
  scored_calls: Type.Integer(),
  z: Rate('two-proportion z of the interested rate against the control\'s; null for the control or without data'),
  p_value: Rate('two-sided p-value of that test: the chance of a difference at least this large if the variant and the control had the same rate'),
  probability_to_be_best: Type.Number({ description: 'Bayesian probability that this variant has the highest interested rate of all (Beta(1+interested, 1+not interested) posteriors, integrated numerically)' }),
  meets_minimum: Type.Boolean({ description: 'calls >= min_calls_per_variant' }),
  fields: Type.Array(FieldFill, { maxItems: 30 }),
});

export const STOPPING_STATES = ['collecting', 'winner', 'no_winner_yet'] as const;

export const ExperimentResults = Type.Object({
  experiment: Experiment,
  stopping_rule: Type.Object({
    min_calls_per_variant: Type.Integer(),
    winner_probability: Type.Number(),
    state: StringEnum(STOPPING_STATES, { description: 'collecting: some variant has fewer calls than the minimum; winner: every variant has its minimum and one has a probability to be best >= winner_probability; no_winner_yet: minimums met, none that sure' }),
    winner_variant_id: Nullable(Type.Integer()),
    explanation: Type.String({ description: 'the state in words' }),
  }),
  variants: Type.Array(VariantResult),
});
export type ExperimentResults = Static<typeof ExperimentResults>;

export const PromoteBody = Type.Object({
  variant_id: Id,
  force: Type.Optional(Type.Boolean({ default: false, description: 'promote although the stopping rule did not declare this variant the winner' })),
}, { additionalProperties: false });
export type PromoteBody = Static<typeof PromoteBody>;

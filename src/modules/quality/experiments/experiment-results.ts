import type { Db } from '../../../db/connection.ts';
import type { Principal } from '../../auth/principal.ts';
import { readExperiment } from './experiments.service.ts';
import { WINNER_PROBABILITY, type Experiment, type ExperimentResults } from './experiments.schemas.ts';
import { probabilityToBeBest, twoProportionZTest } from './statistics.ts';
import { averageScores, fieldFills, variantFigures, type VariantFigures } from './variant-figures.ts';

export const RESULTS_DOC =
  'Results per variant from its ended calls: reached rate (calls with call_duration > 0 / calls), interested rate (contacts with a successful call, ' +
  'status finished and action_status interested, scheduled or transferred / contacts: per contact, the unit the split assigns), average duration of the ' +
  'reached calls, cost per interested contact, average scorecard score (when scorecards are installed) and how often each webhook payload field was filled. ' +
  'Confidence, on the interested rate: p_value is a two-sided two-proportion z-test against the control (pooled standard error): below 0.05 the difference ' +
  'would be unlikely if both rates were equal. probability_to_be_best is Bayesian: each variant\'s rate has a Beta(1 + interested, 1 + not interested) ' +
  'posterior (a uniform prior), and the probability that it is the highest of all is integrated numerically (the same counts always give the same answer). ' +
  `Stopping rule: while any variant (the control included) has fewer ended calls than min_calls_per_variant the state is collecting; then a variant whose probability ` +
  `to be best is at least ${WINNER_PROBABILITY} is the winner (state winner), otherwise no_winner_yet. Only the winner can be made live without force.`;

const ratio = (a: number, b: number) => (b === 0 ? null : a / b);
const EMPTY: VariantFigures = { calls: 0, contacts: 0, reached_calls: 0, interested_contacts: 0, average_duration: null, total_cost: 0 };

/** The results of an experiment the principal may read (its campaign visible). */
export async function readExperimentResults(db: Db, principal: Principal, campaignId: number, experimentId: number): Promise<ExperimentResults> {
  return experimentResults(db, await readExperiment(db, principal, campaignId, experimentId));
}

export async function experimentResults(db: Db, experiment: Experiment): Promise<ExperimentResults> {
  const ids = experiment.variants.map((v) => v.id);
  const [figures, scores, fields] = await Promise.all([variantFigures(db, experiment.campaign_id, ids), averageScores(db, ids), fieldFills(db, ids)]);
  const of = (id: number) => figures.get(id) ?? EMPTY;
  const arms = experiment.variants.map((v) => ({ successes: of(v.id).interested_contacts, trials: of(v.id).contacts }));
  const best = probabilityToBeBest(arms);
  const min = experiment.min_calls_per_variant;
  const variants = experiment.variants.map((v, i) => {
    const f = of(v.id);
    const test = i === 0 ? null : twoProportionZTest(arms[0]!, arms[i]!);
    return {
      variant_id: v.id, label: v.label, kind: v.kind, calls: f.calls, contacts: f.contacts,
      reached_calls: f.reached_calls, reached_rate: ratio(f.reached_calls, f.calls),
      interested_contacts: f.interested_contacts, interested_rate: ratio(f.interested_contacts, f.contacts),
      average_duration: f.average_duration, total_cost: f.total_cost, cost_per_interested: ratio(f.total_cost, f.interested_contacts),
      average_score: scores.get(v.id)?.average ?? null, scored_calls: scores.get(v.id)?.scored ?? 0,
      z: test?.z ?? null, p_value: test?.p_value ?? null, probability_to_be_best: best[i]!,
      meets_minimum: f.calls >= min, fields: fields.get(v.id) ?? [],
    };
  });
  const short = variants.filter((v) => !v.meets_minimum);
  const top = variants.reduce((a, b) => (b.probability_to_be_best > a.probability_to_be_best ? b : a));
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const stopping_rule = short.length > 0
    ? { state: 'collecting' as const, winner_variant_id: null, explanation: `Collecting: ${short.map((v) => `${v.label} has ${v.calls} of ${min} calls`).join('; ')}. No winner is declared before every variant has its minimum.` }
    : top.probability_to_be_best >= WINNER_PROBABILITY
      ? { state: 'winner' as const, winner_variant_id: top.variant_id, explanation: `${top.label} is the winner: every variant has at least ${min} calls and ${top.label} has a ${pct(top.probability_to_be_best)} probability to have the best interested rate (the rule asks ${pct(WINNER_PROBABILITY)}).` }
      : { state: 'no_winner_yet' as const, winner_variant_id: null, explanation: `Every variant has at least ${min} calls, but none is ${pct(WINNER_PROBABILITY)} likely to be best yet (the most likely, ${top.label}, is at ${pct(top.probability_to_be_best)}). Keep it running for more calls, or stop it.` };
  return { experiment, stopping_rule: { min_calls_per_variant: min, winner_probability: WINNER_PROBABILITY, ...stopping_rule }, variants };
}

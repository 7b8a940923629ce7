import type { FieldSchema, PayloadSchema } from '../../../extraction/extractor.ts';

/**
 * What a scorecard is, its default, the schema the judge answers and how a score is computed.
 * Pure: the service, the worker, the tests and the dashboard's documentation share it.
 */

export const CRITERION_TYPES = ['boolean', 'scale', 'category'] as const;
export type CriterionType = (typeof CRITERION_TYPES)[number];

/** Problems the judge looks for on every call of a card that has them on (the default card has them all). */
export const PROBLEM_TAGS = ['dead_air', 'talked_over', 'unanswered_question', 'frustrated'] as const;
export type ProblemTag = (typeof PROBLEM_TAGS)[number];

export const TAG_QUESTIONS: Record<ProblemTag, string> = {
  dead_air: 'Was there dead air: a long silence, or the agent failing to respond when it was its turn?',
  talked_over: 'Did the agent talk over the person or cut them off?',
  unanswered_question: 'Did the person ask a question the agent did not answer?',
  frustrated: 'Did the person sound frustrated, annoyed or angry at any point?',
};

export interface CategoryOption {
  label: string;
  /** 0–1: what the option counts towards the score. */
  value: number;
}

export interface Criterion {
  key: string;
  question: string;
  type: CriterionType;
  /** 0–10; 0 records the answer without counting it in the score. */
  weight: number;
  /** Only for category: 2–10 options. */
  options?: CategoryOption[];
}

export interface Scorecard {
  enabled: boolean;
  criteria: Criterion[];
  tags: ProblemTag[];
}

export const LIMITS = { criteria: 20, question: 300, options: 10, label: 60, weight: 10, key: 40 } as const;
export const KEY_PATTERN = '^[a-z][a-z0-9_]{0,39}$';

export const DEFAULT_CRITERIA: Criterion[] = [
  { key: 'goal_reached', question: 'Did the agent reach the goal of the call (the person agreed to the next step the agent proposed)?', type: 'boolean', weight: 3 },
  { key: 'clarity', question: 'How clear, polite and natural was the agent (1 = confusing or rude, 5 = excellent)?', type: 'scale', weight: 2 },
  { key: 'stayed_on_script', question: 'Did the agent stay on the campaign\'s topic without inventing facts or promises?', type: 'boolean', weight: 2 },
  {
    key: 'sentiment', question: 'How did the person feel about the call by its end?', type: 'category', weight: 1,
    options: [{ label: 'positive', value: 1 }, { label: 'neutral', value: 0.5 }, { label: 'negative', value: 0 }],
  },
];

/** A campaign without its own card: these criteria and every problem tag, switched off. */
export const DEFAULT_CARD: Readonly<Scorecard> = Object.freeze({ enabled: false, criteria: DEFAULT_CRITERIA, tags: [...PROBLEM_TAGS] });

export const SCORE_DOC =
  'The score is 0–100: the weighted mean of the answers, each answer counted as a value from 0 to 1 (boolean: yes 1, no 0; scale 1–5: (n − 1) / 4, ' +
  'so 3 is 0.5; category: the chosen option\'s value), times 100, rounded to one decimal. An answer the judge could not give (null) counts neither in ' +
  'the sum nor in the weights; a weight of 0 records the answer without counting it; with no weighted answer the score is null. Tags do not change the score.';

/** The judge's field names: the criterion's key, reason_<key>, tag_<tag>. Keys cannot start with reason_ or tag_. */
export const reasonField = (key: string) => `reason_${key}`;
export const tagField = (tag: string) => `tag_${tag}`;

/** The strict schema the judge answers through the extraction pipeline: one field per criterion, its reason, one boolean per tag. */
export function judgeSchemaOf(card: Pick<Scorecard, 'criteria' | 'tags'>): { schema: PayloadSchema; instructions: Record<string, string> } {
  const properties: Record<string, FieldSchema> = {};
  const instructions: Record<string, string> = {};
  for (const c of card.criteria) {
    properties[c.key] = c.type === 'boolean' ? { type: 'boolean', description: c.question }
      : c.type === 'scale' ? { type: 'integer', enum: [1, 2, 3, 4, 5], description: `${c.question} (1 to 5)` }
        : { type: 'string', enum: (c.options ?? []).map((o) => o.label), description: c.question };
    instructions[c.key] = `Judge the agent on the transcript: ${c.question}`;
    properties[reasonField(c.key)] = { type: 'string', description: `One sentence: why you answered ${c.key} so, citing the transcript` };
  }
  for (const t of card.tags) {
    properties[tagField(t)] = { type: 'boolean', description: TAG_QUESTIONS[t] };
    instructions[tagField(t)] = `true only if the transcript shows it: ${TAG_QUESTIONS[t]}`;
  }
  return { schema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false }, instructions };
}

export interface Answer {
  /** What the judge said (true/false, 1–5, an option's label), null when it could not tell. */
  answer: boolean | number | string | null;
  /** Its 0–1 value in the score; null when not answered. */
  value: number | null;
  weight: number;
  reason: string | null;
}

/** The 0–1 value of one answer (null: not answered or not a valid answer). */
export function valueOf(c: Criterion, answer: unknown): number | null {
  if (answer === null || answer === undefined) return null;
  if (c.type === 'boolean') return typeof answer === 'boolean' ? (answer ? 1 : 0) : null;
  if (c.type === 'scale') return typeof answer === 'number' && Number.isInteger(answer) && answer >= 1 && answer <= 5 ? (answer - 1) / 4 : null;
  return c.options?.find((o) => o.label === answer)?.value ?? null;
}

/** The judge's payload as answers, tags and the score (SCORE_DOC). */
export function scoreOf(card: Pick<Scorecard, 'criteria' | 'tags'>, payload: Record<string, unknown>) {
  const answers: Record<string, Answer> = {};
  let sum = 0;
  let weights = 0;
  for (const c of card.criteria) {
    const value = valueOf(c, payload[c.key]);
    const reason = payload[reasonField(c.key)];
    answers[c.key] = { answer: value === null ? null : (payload[c.key] as Answer['answer']), value, weight: c.weight, reason: typeof reason === 'string' ? reason : null };
    if (value !== null && c.weight > 0) {
      sum += value * c.weight;
      weights += c.weight;
    }
  }
  const tags = card.tags.filter((t) => payload[tagField(t)] === true);
  const score = weights > 0 ? Math.round((sum / weights) * 1000) / 10 : null;
  return { answers, tags, score };
}

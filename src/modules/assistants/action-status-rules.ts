/**
 * How a call's outcome becomes its action_status: an assistant's rules read the vendor's
 * post-call analysis (CallEvent.analysis: Vapi's `analysis`, Retell's `call_analysis`).
 * The first rule that matches wins; no match leaves action_status null.
 */
export const ACTION_STATUSES = ['interested', 'scheduled', 'transferred'] as const;
export type RuleActionStatus = (typeof ACTION_STATUSES)[number];

export interface ActionStatusRule {
  action_status: RuleActionStatus;
  /** A dotted path into the analysis object, e.g. `structuredData.interested` or `custom_analysis_data.appointment`. */
  path: string;
  /** The value the path must hold (strictly equal); without it, any truthy value matches. */
  equals?: string | number | boolean;
}

/** The value at a dotted path, or undefined when a step is missing or not an object. Own keys only. */
export function valueAtPath(source: unknown, path: string): unknown {
  let value: unknown = source;
  for (const step of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    if (!Object.hasOwn(value, step)) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/** Vendors report booleans as text too ("true", "yes"); an empty, "false", "no" or "0" text is no. */
function truthy(value: unknown): boolean {
  if (typeof value === 'string') return !/^\s*(|false|no|0|null|none)\s*$/i.test(value);
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

function matches(rule: ActionStatusRule, analysis: unknown): boolean {
  const value = valueAtPath(analysis, rule.path);
  if (rule.equals === undefined) return truthy(value);
  return value === rule.equals;
}

/** The action_status the first matching rule names, or null. Pure: the dialer calls it per finished call. */
export function actionStatusFromAnalysis(rules: readonly ActionStatusRule[] | null | undefined, analysis: unknown): RuleActionStatus | null {
  if (!rules || analysis === null || analysis === undefined) return null;
  for (const rule of rules) if (matches(rule, analysis)) return rule.action_status;
  return null;
}

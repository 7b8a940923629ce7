import type { ValidationIssue } from './errors.ts';

/** The subset of an Ajv error that Fastify hands to the error handler. */
interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

const CONTEXT: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

const TYPE_NAMES: Record<string, [string, string]> = {
  integer: ['int_type', 'Input should be a valid integer'],
  number: ['float_type', 'Input should be a valid number'],
  string: ['string_type', 'Input should be a valid string'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  object: ['dict_type', 'Input should be a valid dictionary or object'],
  array: ['list_type', 'Input should be a valid list'],
  null: ['none_type', 'Input should be None'],
};

function describe(error: AjvError): { type: string; msg: string } {
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return { type: 'missing', msg: 'Field required' };
    case 'type': {
      const expected = String(p.type).split(',')[0] ?? '';
      const [type, msg] = TYPE_NAMES[expected] ?? ['type_error', `Input should be ${p.type}`];
      return { type, msg };
    }
    case 'enum':
      return { type: 'enum', msg: `Input should be ${(p.allowedValues as unknown[]).map((v) => `'${v}'`).join(', ')}` };
    case 'const':
      return { type: 'literal_error', msg: `Input should be '${p.allowedValue}'` };
    case 'format':
      return { type: `${String(p.format).replace(/-/g, '_')}_parsing`, msg: `Input should be a valid ${p.format}` };
    // Worded as FastAPI does ("Input should be greater than or equal to 1"); Ajv's own message is "must be >= 1".
    case 'minimum':
      return { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${p.limit}` };
    case 'exclusiveMinimum':
      return { type: 'greater_than', msg: `Input should be greater than ${p.limit}` };
    case 'maximum':
      return { type: 'less_than_equal', msg: `Input should be less than or equal to ${p.limit}` };
    case 'exclusiveMaximum':
      return { type: 'less_than', msg: `Input should be less than ${p.limit}` };
    case 'minLength':
      return { type: 'string_too_short', msg: `String should have at least ${p.limit} characters` };
    case 'maxLength':
      return { type: 'string_too_long', msg: `String should have at most ${p.limit} characters` };
    case 'minItems':
      return { type: 'too_short', msg: `List should have at least ${p.limit} items` };
    case 'maxItems':
      return { type: 'too_long', msg: `List should have at most ${p.limit} items` };
    case 'pattern':
      return { type: 'string_pattern_mismatch', msg: `String should match pattern '${p.pattern}'` };
    default:
      return { type: error.keyword, msg: error.message ?? 'Invalid value' };
  }
}

function pathOf(instancePath: string): (string | number)[] {
  if (!instancePath) return [];
  return instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/**
 * Turns Ajv errors into FastAPI's `detail` items. Nullable fields are `anyOf [T, null]`,
 * which makes Ajv report every branch; one issue per location is kept, the most specific.
 */
export function toValidationIssues(errors: AjvError[], context: string): ValidationIssue[] {
  const root = CONTEXT[context] ?? context;
  const byLoc = new Map<string, ValidationIssue & { rank: number }>();
  for (const error of errors) {
    const loc: (string | number)[] = [root, ...pathOf(error.instancePath)];
    if (error.keyword === 'required') loc.push(String(error.params.missingProperty));
    const rank = error.keyword === 'anyOf' ? 3 : error.keyword === 'type' && error.params.type === 'null' ? 2 : 1;
    const key = JSON.stringify(loc);
    const existing = byLoc.get(key);
    if (existing && existing.rank <= rank) continue;
    byLoc.set(key, { loc, ...describe(error), rank });
  }
  return [...byLoc.values()].map(({ rank: _rank, ...issue }) => issue);
}

import AjvCompiler from '@fastify/ajv-compiler';

const SHARED = { removeAdditional: true, useDefaults: true } as const;

interface RouteSchema {
  schema: unknown;
  method: string;
  url: string;
  httpPart?: string;
}
type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null };
type Compile = (route: RouteSchema) => Validate;

/** A body this small is validated again for all its errors; a bigger one reports its first. */
const ALL_ERRORS_MAX_NODES = 2_000;
/** At most this many errors are reported for one request part. */
export const MAX_REPORTED_ERRORS = 50;

/** Counts the values in `data`, stopping at `limit` (a bounded walk: bodies may hold millions). */
function smallerThan(data: unknown, limit: number): boolean {
  let budget = limit;
  const stack: unknown[] = [data];
  while (stack.length > 0) {
    if (--budget < 0) return false;
    const value = stack.pop();
    if (value && typeof value === 'object') for (const v of Object.values(value)) stack.push(v);
  }
  return true;
}

/**
 * Validators by request part:
 * - query strings, path parameters and headers arrive as text, so they are coerced to their
 *   declared types (and a single value to a one-item array); they are small, so every error is reported;
 * - JSON bodies are typed already and are not coerced: with coercion a `null` sent for a
 *   boolean became false, for an integer 0 and for a string "", so a client's mistake changed data
 *   instead of failing 422. A urlencoded form body (login) declares only strings. A body is first
 *   checked up to its first error; only a small one is checked again to list all its errors: with
 *   every error collected, a 3 MB array of a million empty objects took 20 s and 1.7 GB to refuse.
 */
export function buildValidator(externalSchemas: Record<string, never>, serverOptions?: { plugins?: never[] }) {
  const factory = AjvCompiler();
  const plugins = serverOptions?.plugins ?? [];
  // The package's types describe the pool's result as Ajv's compile; at runtime it takes the route (as Fastify calls it).
  const options = (custom: Record<string, unknown>) => ({ customOptions: { ...SHARED, ...custom }, plugins, onCreate: wallClockTime });
  const coercing = factory(externalSchemas, options({ allErrors: true, coerceTypes: 'array' })) as unknown as Compile;
  const firstError = factory(externalSchemas, options({ allErrors: false, coerceTypes: false })) as unknown as Compile;
  const allErrors = factory(externalSchemas, options({ allErrors: true, coerceTypes: false })) as unknown as Compile;
  return (route: RouteSchema): Validate => {
    if (route.httpPart !== 'body') return capped(coercing(route));
    const first = firstError(route);
    let all: Validate | undefined; // compiled on a route's first small invalid body, not at start-up
    const validate: Validate = (data) => {
      if (first(data)) return true;
      let errors = first.errors;
      if (smallerThan(data, ALL_ERRORS_MAX_NODES)) {
        all ??= allErrors(route);
        if (!all(data)) errors = all.errors;
      }
      validate.errors = errors?.slice(0, MAX_REPORTED_ERRORS) ?? null;
      return false;
    };
    return validate;
  };
}

/**
 * `format: time` in this API is a wall-clock time of day, HH:MM or HH:MM:SS without an offset
 * (a calling window is read in each contact's own zone). ajv-formats' RFC 3339 `time` requires
 * an offset, so the format is declared here the way the API uses it.
 */
export const WALL_CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?$/;
function wallClockTime(ajv: { addFormat(name: string, format: RegExp): unknown }) {
  ajv.addFormat('time', WALL_CLOCK_TIME);
}

function capped(inner: Validate): Validate {
  const validate: Validate = (data) => {
    const ok = inner(data);
    validate.errors = inner.errors?.slice(0, MAX_REPORTED_ERRORS) ?? null;
    return ok;
  };
  return validate;
}

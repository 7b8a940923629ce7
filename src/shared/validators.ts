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
  const coercing = factory(externalSchemas, { customOptions: { ...SHARED, allErrors: true, coerceTypes: 'array' }, plugins }) as unknown as Compile;
  const firstError = factory(externalSchemas, { customOptions: { ...SHARED, allErrors: false, coerceTypes: false }, plugins }) as unknown as Compile;
  const allErrors = factory(externalSchemas, { customOptions: { ...SHARED, allErrors: true, coerceTypes: false }, plugins }) as unknown as Compile;
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

function capped(inner: Validate): Validate {
  const validate: Validate = (data) => {
    const ok = inner(data);
    validate.errors = inner.errors?.slice(0, MAX_REPORTED_ERRORS) ?? null;
    return ok;
  };
  return validate;
}

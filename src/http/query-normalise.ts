import type { RouteOptions } from 'fastify';
import { DateTime as Lux } from 'luxon';

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; format?: string; anyOf?: Schema[] };

const typesOf = (s: Schema): string[] => [
  ...(Array.isArray(s.type) ? s.type : s.type ? [s.type] : []),
  ...(s.anyOf ?? []).flatMap(typesOf),
];

/**
 * Query conventions fixed for clients (DESIGN.md): arrays as repeated keys or a comma
 * list, booleans as true/false/1/0, a date-time whose `+` offset arrived decoded as a
 * space, and a date or date-time without an offset (read in `timezone`, else UTC). Ajv
 * cannot express these, so each route gets a small rewrite before validation.
 */
const NAIVE = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d{1,9})?)?)?$/;

export function queryNormaliser(route: RouteOptions): ((query: Record<string, unknown>) => void) | null {
  const props = (route.schema?.querystring as Schema | undefined)?.properties;
  if (!props) return null;
  const arrays: string[] = [];
  const booleans: string[] = [];
  const dateTimes: string[] = [];
  for (const [name, schema] of Object.entries(props)) {
    const types = typesOf(schema);
    if (types.includes('array')) arrays.push(name);
    else if (types.includes('boolean')) booleans.push(name);
    else if (schema.format === 'date-time' || (schema.anyOf ?? []).some((s) => s.format === 'date-time')) dateTimes.push(name);
  }
  if (arrays.length + booleans.length + dateTimes.length === 0) return null;
  return (query) => {
    for (const name of arrays) {
      const value = query[name];
      const list = Array.isArray(value) ? value : value === undefined ? undefined : [value];
      if (list) query[name] = list.flatMap((v) => (typeof v === 'string' && v.includes(',') ? v.split(',') : [v])).filter((v) => v !== '');
    }
    for (const name of booleans) {
      if (query[name] === '1') query[name] = 'true';
      else if (query[name] === '0') query[name] = 'false';
    }
    // A date alone, or a date-time without an offset (Python's isoformat() of a naive
    // datetime), is read in the request's `timezone` parameter when it has a valid one, else UTC.
    const zone = typeof query.timezone === 'string' && query.timezone ? query.timezone : 'UTC';
    for (const name of dateTimes) {
      const value = query[name];
      if (typeof value !== 'string') continue;
      if (NAIVE.test(value)) {
        const local = Lux.fromISO(value, { zone });
        if (local.isValid) query[name] = local.toUTC().toISO();
        continue;
      }
      query[name] = value.replace(/ (\d\d:?\d\d)$/, '+$1');
    }
  };
}

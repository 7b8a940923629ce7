import type { FastifyInstance } from 'fastify';
import { unprocessable } from './errors.ts';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text a caller sent, made safe to store and show in an error: NUL removed, lone
 * surrogates replaced, at most `max` code units (never cutting a pair in half).
 */
export function storableExcerpt(text: string, max = 64): string {
  const safe = text.replace(/\u0000/g, '').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');
  return safe.length > max ? `${keepStart(safe, max)}…` : safe;
}

/**
 * The first `max` UTF-16 units of `text`, never ending in half a surrogate pair: a cut emoji
 * left a lone surrogate that jsonb refuses (it failed a whole batch of webhook deliveries).
 */
export function keepStart(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** Deeper JSON is refused: serialising 5,000 nested objects overflowed the stack (a 500). */
export const MAX_JSON_DEPTH = 64;

/**
 * Where a parsed JSON value holds what PostgreSQL cannot store: a NUL character (text and
 * jsonb refuse it) or a lone UTF-16 surrogate (jsonb refuses its escape), or nesting deeper
 * than MAX_JSON_DEPTH. Found here, such input is a 422 naming the place; found by the
 * database it was a 500 or, inside an import, a failed task.
 */
export function unstorable(value: unknown, path: (string | number)[] = [], depth = 0): { loc: (string | number)[]; msg: string } | null {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return { loc: path, msg: 'Text may not contain the NUL character (\\u0000)' };
    if (LONE_SURROGATE.test(value)) return { loc: path, msg: 'Text may not contain a lone UTF-16 surrogate' };
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  if (depth >= MAX_JSON_DEPTH) return { loc: path, msg: `JSON may nest at most ${MAX_JSON_DEPTH} levels` };
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [key, v] of entries) {
    if (typeof key === 'string') {
      const bad = unstorable(key, path, depth);
      if (bad) return { loc: [...path, key], msg: `Key: ${bad.msg}` };
    }
    const bad = unstorable(v, [...path, key], depth + 1);
    if (bad) return bad;
  }
  return null;
}

/** Fastify's JSON parser (prototype-poisoning checks kept), then the checks of `unstorable`. */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parse(request, body as string, (error: Error | null, value?: unknown) => {
      if (error) return done(error, undefined);
      const bad = unstorable(value);
      if (bad) return done(unprocessable(['body', ...bad.loc], bad.msg, 'value_error'), undefined);
      done(null, value);
    });
  });
}

import fc from 'fast-check';
import { hostileCsvBodies } from './fuzz-csv.ts';

/**
 * Requests for test/openapi-fuzz.test.ts, built from one operation of the served OpenAPI
 * document: a valid base request (real ids, schema examples), then the same request with one
 * part broken: credentials, a path parameter, a query parameter, the body or its content type.
 * Fixed nasty values are sampled with fast-check under the run's seed, plus values fast-check
 * generates from each schema, so a new operation is covered without listing it anywhere.
 */

export type Schema = {
  type?: string | string[]; enum?: unknown[]; const?: unknown; default?: unknown; format?: string; pattern?: string;
  anyOf?: Schema[]; oneOf?: Schema[]; items?: Schema; properties?: Record<string, Schema>; required?: string[];
  minimum?: number; maximum?: number; exclusiveMinimum?: number; minLength?: number; maxLength?: number; minItems?: number;
};
export type Parameter = { name: string; in: string; required?: boolean; schema: Schema };
export type Operation = { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> }; security?: unknown[] };

export interface FuzzCase {
  label: string;
  method: string;
  /** Exactly the bytes of the request target: already percent-encoded. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** A 2xx would mean a bad credential or a malformed body was accepted. */
  mustReject?: boolean;
}

export interface FuzzContext {
  seed: number;
  /** Real ids of seeded objects, by the collection segment before `{id}` or by parameter name. */
  ids: Record<string, number | string>;
  /** Valid values by field name (a function of the path template: a fresh value per use, or one per operation). */
  hints: Record<string, unknown | ((template: string) => unknown)>;
  /** Headers a body needs to be believed, by path template: a signature over the exact bytes sent. */
  signers?: Record<string, (body: Buffer) => Record<string, string>>;
  /** Set by casesFor: the operation's path template, for hints that depend on it. */
  template?: string;
  apiKeyHeaders: Record<string, string>;
  integrationToken: string;
}

const HUGE = 'a'.repeat(100_000);
const DEEP_OBJECT = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`; // built as text: JSON.stringify overflows on it
const DEEP_ARRAY = `${'['.repeat(5000)}${']'.repeat(5000)}`;

/** Path and query values, already percent-encoded: NUL, a lone surrogate (ED A0 80), overlong UTF-8, bad escapes. */
export const NASTY_URL = [
  '1e400', '9223372036854775808', '%00', '-1', '99999999999999999999', '1e20', '-1e400', 'NaN', '0', '1.5', 'abc', '', 'Infinity',
  '0x10', '%201', '+1', '1%00', '%ED%A0%80', '%C0%AE', '%', '%zz', 'true', '%5B%5D', '%7B%7D', 'a'.repeat(10_000),
];
const TEXT_URL = ['%00', '%ED%A0%80', 'a'.repeat(10_000), '1%00', '%C0%AE', '%', '%zz', '', '%5B%5D', '1e400'];
const DATE_URL = ['%00', '2026-13-01', '0000-01-01', '99999-01-01', '2026-01-01T25:00:00', '1e400', '', '2026-01-01T00:00:00%2B99:00', '%ED%A0%80'];
/** Query values worth trying for a schema, most likely to break something first. */
function urlValues(s: Schema): string[] {
  const t = typeOf(s);
  if (t === 'array') return [...urlValues(s.items ?? {}).slice(0, 6), Array(1000).fill('x').join(','), ',,,'];
  if (t === 'integer' || t === 'number') return [...NASTY_URL.slice(0, 16), ...(s.minimum === undefined ? [] : [String(s.minimum - 1)]), ...(s.maximum === undefined ? [] : [String(s.maximum + 1)])];
  if (t === 'boolean') return ['%00', 'yes', '2', '', 'NaN', '%ED%A0%80'];
  if (s.format) return DATE_URL;
  return s.enum ? ['zz', ...TEXT_URL] : TEXT_URL;
}

/** JSON values as raw text: numbers JSON.stringify cannot write, escapes PostgreSQL cannot store, size and depth. */
const NUM_JSON = ['1e400', '9223372036854775808', '-1e400', '-9223372036854775809', '1e20', '-1', '0', '1.5', '"1"', 'null', 'true', '"NaN"'];
const TEXT_JSON = ['"\\u0000"', '"\\ud800"', JSON.stringify(HUGE), '"a\\u0000b"', '"\\udc00x"', '""', '1', 'null', '[]', '{}'];
const ANY_JSON = [DEEP_OBJECT, '{"k\\u0000":1}', '{"k":"\\ud800"}', `[${'"x",'.repeat(50_000)}"x"]`, '"\\u0000"', '1e400', '"x"', 'null', '[]', '{}'];
function jsonValues(s: Schema): string[] {
  const t = typeOf(s);
  if (s.anyOf ?? s.oneOf) return ANY_JSON;
  if (t === 'integer' || t === 'number') return NUM_JSON;
  if (t === 'string') return TEXT_JSON;
  if (t === 'boolean') return ['"true"', '1', 'null', '"\\u0000"', '[]'];
  if (t === 'array') return [`[${'1,'.repeat(50_000)}1]`, '[1e400]', '["\\u0000"]', '[null]', DEEP_ARRAY, '"x"', '{}'];
  return ANY_JSON;
}

/** Round-robin over per-target lists (each in priority order), at most `cap` in all: every target gets its first values. */
function spread<T>(lists: T[][], cap: number): T[] {
  const out: T[] = [];
  for (let r = 0; out.length < cap && lists.some((l) => r < l.length); r++) for (const l of lists) if (r < l.length && out.length < cap) out.push(l[r]!);
  return out;
}

export const BAD_API_KEYS = ['', ' ', 'garbage', `vc_${'x'.repeat(40)}`, 'x'.repeat(8000), '\xff\xfe', "' OR 1=1 --", '%00', 'null'];
const NONE_JWT = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"u:1","exp":9999999999}').toString('base64url')}.`;
export const BAD_AUTHORIZATION = ['Bearer', 'Bearer ', 'Bearer garbage', 'Bearer a.b.c', `Bearer ${NONE_JWT}`, `Bearer ${'x'.repeat(8000)}`, 'Basic dXNlcjpwYXNz', 'Token abc', 'Bearer \xff'];

/** One code point of any kind, sometimes NUL, a lone surrogate or a direction override. */
const nastyUnit = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\ud800', '\udfff', '\u202e', '\ufeff') },
  { weight: 9, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);

/** Percent-encodes every byte but unreserved ones (a lone surrogate becomes U+FFFD: raw ones are in NASTY_URL). */
export const pct = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

function typeOf(s: Schema) {
  return (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type) ?? (s.properties ? 'object' : s.items ? 'array' : undefined);
}

/** A valid-looking value: hints by field name first, then the schema's default, enum or type. */
export function example(s: Schema, name: string, ctx: FuzzContext): unknown {
  if (name in ctx.hints) { const h = ctx.hints[name]; return typeof h === 'function' ? (h as (t: string) => unknown)(ctx.template ?? '') : h; }
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum.find((v) => v !== null);
  const alt = s.anyOf ?? s.oneOf;
  if (alt?.[0]) return example(alt[0], name, ctx);
  switch (typeOf(s)) {
    case 'object': { // required fields, and the optional ones with a hint (create-contact needs a phone, named optional)
      const keys = Object.keys(s.properties ?? {}).filter((k) => s.required?.includes(k) || k in ctx.hints);
      return Object.fromEntries([...new Set([...(s.required ?? []), ...keys])].map((k) => [k, example(s.properties?.[k] ?? {}, k, ctx)]));
    }
    case 'array': return [example(s.items ?? {}, name, ctx)];
    case 'integer': case 'number': return Math.min(s.maximum ?? Infinity, Math.max(s.minimum ?? 1, (s.exclusiveMinimum ?? 0) + 1));
    case 'boolean': return false;
    case 'string':
      if (s.format === 'date-time') return '2030-01-01T00:00:00Z';
      if (s.format === 'date') return '2030-01-01';
      if (s.format === 'binary') return 'phone,name\n+12125550199,Ann\n';
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    default: return {};
  }
}

/** Values fast-check generates from a schema: mostly valid, with nasty text and out-of-range numbers mixed in. */
function valueArb(s: Schema, name: string, ctx: FuzzContext, depth = 0): fc.Arbitrary<unknown> {
  const wild = fc.jsonValue({ maxDepth: 2, stringUnit: nastyUnit });
  if (s.enum) return fc.oneof(fc.constantFrom(...s.enum), fc.string({ unit: nastyUnit }));
  const alt = s.anyOf ?? s.oneOf;
  if (alt?.length) return fc.oneof(...alt.map((a) => valueArb(a, name, ctx, depth)));
  const ok = fc.constant(example(s, name, ctx));
  switch (typeOf(s)) {
    case 'integer': return fc.oneof(ok, fc.integer({ min: (s.minimum ?? 0) - 2, max: Math.min(s.maximum ?? 2 ** 31, (s.minimum ?? 0) + 1000) }), fc.maxSafeInteger(), fc.double());
    case 'number': return fc.oneof(ok, fc.double());
    case 'boolean': return fc.oneof(fc.boolean(), wild);
    case 'string': return fc.oneof(ok, fc.string({ unit: nastyUnit, maxLength: (s.maxLength ?? 40) + 2 }), s.format ? fc.date().map((d) => (Number.isNaN(d.getTime()) ? 'x' : d.toISOString())) : ok);
    case 'array': return fc.oneof(ok, fc.array(valueArb(s.items ?? {}, name, ctx, depth + 1), { maxLength: 4 }), wild);
    case 'object': {
      if (depth > 2 || !s.properties) return fc.oneof(ok, wild);
      const props = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, valueArb(v, k, ctx, depth + 1)]));
      return fc.oneof({ weight: 4, arbitrary: fc.record(props, { requiredKeys: s.required ?? [] }).map((r) => ({ ...(example(s, name, ctx) as object), ...r })) }, wild);
    }
    default: return wild;
  }
}

/** Query values, percent-encoded; an array parameter as repeated keys. */
function queryArb(p: Parameter, ctx: FuzzContext): fc.Arbitrary<[string, string][]> {
  const one = (s: Schema) => valueArb(s, p.name, ctx).map((v) => pct(typeof v === 'string' ? v : JSON.stringify(v) ?? ''));
  if (typeOf(p.schema) === 'array') return fc.array(one(p.schema.items ?? {}), { maxLength: 4 }).map((vs) => vs.map((v) => [p.name, v]));
  return one(p.schema).map((v) => [[p.name, v]]);
}

const hashOf = (s: string) => [...s].reduce((h, ch) => (Math.imul(h, 31) + ch.charCodeAt(0)) | 0, 0);
/** n of `list`, chosen under the seed: the same run picks the same cases. */
const pick = <T>(list: T[], n: number, seed: number): T[] => (list.length <= n ? list : fc.sample(fc.shuffledSubarray(list, { minLength: n, maxLength: n }), { seed, numRuns: 1 })[0]!);

interface Body { type?: string; data: Buffer }
const json = (text: string, type = 'application/json'): Body => ({ type, data: Buffer.from(text, 'utf8') });
const HOLE = '__FUZZ_HOLE__';
/** The base body with one field set to raw JSON text (an array body: in its first item). */
function withRaw(base: unknown, key: string, raw: string): string {
  const put = (o: unknown) => ({ ...(o && typeof o === 'object' ? o : {}), [key]: HOLE });
  return JSON.stringify(Array.isArray(base) ? [put(base[0]), ...base.slice(1)] : put(base)).replace(`"${HOLE}"`, () => raw);
}
const form = (fields: [string, string][]) => fields.map(([k, v]) => `${k}=${v}`).join('&');
const BOUNDARY = 'fuzzB0undary';
/** A multipart body; a binary field is a file part, sent last as the CSV route asks. */
function multipart(fields: [string, string | Buffer, boolean?][], boundary = BOUNDARY, close = true): Buffer {
  const parts = fields.map(([name, value, file]) => Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="c.csv"\r\nContent-Type: text/csv' : ''}\r\n\r\n`),
    Buffer.isBuffer(value) ? value : Buffer.from(value), Buffer.from('\r\n'),
  ]));
  return Buffer.concat([...parts, Buffer.from(close ? `--${boundary}--\r\n` : '')]);
}

const idFor = (template: string, name: string, ctx: FuzzContext) => {
  const segment = name === 'id' ? template.split('/{id}')[0]!.split('/').pop()! : name;
  return String(ctx.ids[segment] ?? 1);
};

export function casesFor(method: string, template: string, op: Operation, context: FuzzContext): FuzzCase[] {
  const ctx = { ...context, template };
  const seed = ctx.seed ^ hashOf(`${method} ${template}`); // per operation: a new operation leaves the others' cases alone
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const [contentType, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
  const schema = media?.schema ?? {};
  const tokenAuth = queryParams.some((p) => p.name === 'token');
  const auth = op.security?.length ? ctx.apiKeyHeaders : tokenAuth ? { authorization: `Bearer ${ctx.integrationToken}` } : {};
  const realPath = Object.fromEntries(pathParams.map((p) => [p.name, idFor(template, p.name, ctx)]));
  // An operation authenticated by an integration token takes its input in the query: its hinted parameters are the base.
  const baseQuery = queryParams.filter((p) => p.name !== 'token' && (p.required || (tokenAuth && p.name in ctx.hints))).map((p): [string, string] => [p.name, pct(String(example(p.schema, p.name, ctx)))]);
  const fields = (): [string, string][] => Object.entries(example(schema, '', ctx) as Record<string, unknown>).map(([k, v]) => [k, String(v)]);
  const fileField = Object.entries(schema.properties ?? {}).find(([, s]) => s.format === 'binary')?.[0];
  const mp = (fs: [string, string | Buffer][], boundary = BOUNDARY, close = true) => multipart(fs.map(([k, v]) => [k, v, k === fileField]), boundary, close);
  const baseBody = (): Body | undefined => {
    if (!contentType) return undefined;
    if (contentType.startsWith('multipart/')) { const f = fields(); return { type: `multipart/form-data; boundary=${BOUNDARY}`, data: mp([...f.filter(([k]) => k !== fileField), ...f.filter(([k]) => k === fileField)]) }; }
    if (contentType === 'application/x-www-form-urlencoded') return { type: contentType, data: Buffer.from(form(fields().map(([k, v]) => [k, pct(v)]))) };
    return json(JSON.stringify(example(schema, '', ctx)));
  };

  const signer = ctx.signers?.[template];
  const make = (label: string, o: { method?: string; path?: Record<string, string>; query?: [string, string][]; headers?: Record<string, string>; body?: Body | null; mustReject?: boolean } = {}): FuzzCase => {
    const values = { ...realPath, ...o.path };
    const query = o.query ?? baseQuery;
    const body = o.body === null ? undefined : o.body ?? baseBody();
    const signature = signer && !o.headers ? signer(body?.data ?? Buffer.alloc(0)) : {};
    return {
      label, method: o.method ?? method.toUpperCase(), mustReject: o.mustReject ?? false,
      path: template.replace(/\{(\w+)\}/g, (_, n: string) => values[n]!) + (query.length ? `?${form(query)}` : ''),
      headers: { ...(o.headers ?? auth), ...signature, ...(body?.type ? { 'content-type': body.type } : {}) },
      ...(body ? { body: body.data } : {}),
    };
  };

  const cases = [make('valid'), make('unknown method', { method: 'PATCH' })];
  if (op.security?.length) {
    cases.push(make('no credentials', { headers: {}, mustReject: true }));
    cases.push(...pick(BAD_API_KEYS, 5, seed).map((k) => make(`x-api-key ${JSON.stringify(k.slice(0, 20))}`, { headers: { 'x-api-key': k }, mustReject: true })));
    cases.push(...pick(BAD_AUTHORIZATION, 5, seed + 1).map((a) => make(`authorization ${JSON.stringify(a.slice(0, 24))}`, { headers: { authorization: a }, mustReject: true })));
  } else if (signer) {
    const bad = ['', 't=1,v1=00', `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`, 't=1e400,v1=zz', `v1=${'x'.repeat(8000)}`];
    const header = Object.keys(signer(Buffer.alloc(0)))[0]!;
    cases.push(...bad.map((v) => make(`${header} ${JSON.stringify(v.slice(0, 24))}`, { headers: { [header]: v }, mustReject: true })));
  } else if (tokenAuth) {
    cases.push(make('no token', { headers: {}, mustReject: true }));
    cases.push(...pick(BAD_AUTHORIZATION, 5, seed).map((a) => make(`authorization ${JSON.stringify(a.slice(0, 24))}`, { headers: { authorization: a }, mustReject: true })));
    cases.push(...pick(NASTY_URL, 5, seed + 1).map((v) => make(`query token=${v.slice(0, 20)}`, { headers: {}, query: [...baseQuery, ['token', v]], mustReject: true })));
  }

  // Every path parameter gets every nasty value: ids are where bigint and encoding bugs live.
  for (const p of pathParams) {
    const generated = fc.sample(fc.oneof(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String), fc.string({ unit: nastyUnit }).map(pct)), { seed: seed + 2, numRuns: 4 });
    cases.push(...[...NASTY_URL, ...generated].map((v) => make(`path ${p.name}=${v.slice(0, 30)}`, { path: { [p.name]: v } })));
  }

  const q = queryParams.filter((p) => p.name !== 'token');
  if (q.length) {
    const first = q[0]!.name;
    cases.push(
      make('query unknown parameter', { query: [...baseQuery, ['zz_unknown', '1']] }),
      make('query 100k value', { query: [...baseQuery, [first, HUGE]] }),
      make('query 1000 repeated keys', { query: [...baseQuery, ...Array.from({ length: 1000 }, (_, i): [string, string] => [first, String(i)])] }),
      make('query __proto__', { query: [...baseQuery, ['__proto__', '1'], ['constructor', 'x']] }),
      // Each parameter its most dangerous values first, 60 in all.
      ...spread(q.map((p) => urlValues(p.schema).map((v) => [p.name, v] as const)), 60)
        .map(([n, v]) => make(`query ${n}=${v.slice(0, 30)}`, { query: [...baseQuery.filter(([k]) => k !== n), [n, v]] })),
      ...fc.sample(fc.tuple(...q.map((p) => fc.option(queryArb(p, ctx), { nil: undefined }))), { seed: seed + 5, numRuns: 10 })
        .map((vals, i) => make(`query generated #${i}`, { query: [...baseQuery.filter(([k]) => !vals.some((v) => v?.[0]?.[0] === k)), ...vals.flatMap((v) => v ?? [])] })),
    );
  }

  if (!contentType && method !== 'get') {
    cases.push(make('unexpected JSON body', { body: json('{"zz":1}') }), make('unexpected truncated JSON', { body: json('{"zz":') }), make('unexpected text/plain', { body: json('hello', 'text/plain') }));
  }
  if (contentType === 'application/json') {
    const base = example(schema, '', ctx);
    const text = JSON.stringify(base);
    const wrongRoot = typeOf(schema) === 'array' ? ['{}', '"x"', '1', 'null'] : ['[]', '"x"', '1', 'null', 'true'];
    cases.push(
      ...wrongRoot.map((r) => make(`body ${r}`, { body: json(r) })),
      make('body unknown field', { body: json(withRaw(base, 'zz_unknown', '1')) }),
      make('body nested 5000 deep', { body: json(DEEP_OBJECT), mustReject: true }),
      make('body array nested 5000 deep', { body: json(DEEP_ARRAY), mustReject: true }),
      make('body truncated JSON', { body: json(text.slice(0, Math.max(1, Math.floor(text.length / 2)))), mustReject: true }),
      make('body empty, JSON content type', { body: json('') }),
      make('body empty, no content type', { body: { data: Buffer.alloc(0) } }),
      make('body as text/plain', { body: json(text, 'text/plain') }),
      make('body as application/xml', { body: json('<a>1</a>', 'application/xml') }),
      make('body as multipart without boundary', { body: json(text, 'multipart/form-data') }),
      make('body labelled multipart, not multipart', { body: json(text, `multipart/form-data; boundary=${BOUNDARY}`) }),
      make('body as form', { body: json('a=1&b=%00', 'application/x-www-form-urlencoded') }),
      make('body JSON, charset utf-16', { body: json(text, 'application/json; charset=utf-16') }),
      make('body __proto__', { body: json('{"__proto__":{"x":1}}') }),
      make('body raw NUL byte in a string', { body: json('{"a":"\u0000"}'), mustReject: true }),
      make('body invalid UTF-8', { body: { type: 'application/json', data: Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]) } }),
      make('body over 1 MiB', { body: json(withRaw(base, 'zz_big', JSON.stringify('x'.repeat(1_100_000)))) }),
    );
    const itemSchema = typeOf(schema) === 'array' ? schema.items ?? {} : schema;
    const props = Object.keys(itemSchema.properties ?? {});
    const lists = props.map((p) => jsonValues(itemSchema.properties![p]!).map((raw) => [p, raw] as const));
    const refused = (raw: string) => raw.includes('\\u0000') || raw.includes('\\ud') || raw === DEEP_OBJECT; // 422 by convention, whatever the field
    cases.push(...spread(lists, 30).map(([p, raw]) => make(`body ${p}=${raw.slice(0, 30)}`, { body: json(withRaw(base, p, raw)), mustReject: refused(raw) })));
    cases.push(...fc.sample(valueArb(schema, '', ctx), { seed: seed + 7, numRuns: 10 }).map((v, i) => make(`body generated #${i}`, { body: json(JSON.stringify(v) ?? 'null') })));
  }
  if (contentType === 'application/x-www-form-urlencoded') {
    const f = fields().map(([k, v]): [string, string] => [k, pct(v)]);
    cases.push(
      make('form as JSON', { body: json(JSON.stringify(Object.fromEntries(fields()))) }),
      make('form empty', { body: { type: contentType, data: Buffer.alloc(0) } }),
      make('form repeated keys', { body: { type: contentType, data: Buffer.from(form([...f, ...f])) } }),
      make('form as text/plain', { body: json(form(f), 'text/plain') }),
      make('form as multipart without boundary', { body: json(form(f), 'multipart/form-data') }),
      ...spread(f.map(([k]) => [...TEXT_URL, pct(HUGE)].map((v) => [k, v] as const)), 24)
        .map(([k, v]) => make(`form ${k}=${v.slice(0, 30)}`, { body: { type: contentType, data: Buffer.from(form([...f.filter(([n]) => n !== k), [k, v]])) } })),
    );
  }
  if (contentType?.startsWith('multipart/')) {
    const f = fields();
    const plain = f.filter(([k]) => k !== fileField);
    const file = f.filter(([k]) => k === fileField);
    const ordered = [...plain, ...file];
    const body = (data: Buffer, type = `multipart/form-data; boundary=${BOUNDARY}`): { body: Body } => ({ body: { type, data } });
    const decoded: (string | Buffer)[] = ['1e400', '9223372036854775808', '\u0000', Buffer.from([0xed, 0xa0, 0x80]), '-1', '0', 'NaN', '', 'x'.repeat(10_000)];
    cases.push(
      make('multipart without boundary', body(mp(ordered), 'multipart/form-data')),
      make('multipart, other boundary', body(mp(ordered, 'other'))),
      make('multipart, not multipart', body(Buffer.from(JSON.stringify(Object.fromEntries(f))))),
      make('multipart truncated (no closing boundary)', body(mp(ordered, BOUNDARY, false))),
      make('multipart empty', body(Buffer.alloc(0))),
      make('multipart, file before fields', body(mp([...file, ...plain]))),
      make('multipart, no file', body(mp(plain))),
      make('multipart, only the file', body(mp(file))),
      make('multipart, two files', body(mp([...plain, ...file, ...file]))),
      make('multipart, NUL in a part name', body(mp([...plain, ['a\u0000b', '1'], ...file]))),
      make('multipart, file of NUL and invalid UTF-8', body(mp([...plain, [fileField ?? 'file', Buffer.from([0, 0xff, 0xfe, 10, 0x2c, 0, 10])]]))),
      make('multipart as JSON', { body: json(JSON.stringify(Object.fromEntries(f))) }),
      make('multipart as multipart/mixed', body(mp(ordered), `multipart/mixed; boundary=${BOUNDARY}`)),
      ...spread(plain.map(([k]) => decoded.map((v) => [k, v] as const)), 18)
        .map(([k, v]) => make(`multipart ${k}=${String(v).slice(0, 20)}`, body(mp([...plain.filter(([n]) => n !== k), [k, v], ...file])))),
      // Valid fields naming the `phone` header the hostile files have, so their rows are read too.
      ...hostileCsvBodies(seed, plain.filter(([k]) => k !== 'timezone_column').map(([k, v]): [string, string] => [k, k === 'phone_column' ? 'phone' : v]), fileField ?? 'file', BOUNDARY)
        .map((h) => make(h.label, body(h.data, h.type))),
    );
  }
  return cases;
}

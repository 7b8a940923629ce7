import type { FastifyRequest, RouteOptions } from 'fastify';
import { HttpError, unprocessable } from './errors.ts';
import { unstorable } from './json-body.ts';
import { queryNormaliser } from './query-normalise.ts';

type JsonSchema = { type?: unknown; properties?: Record<string, unknown>; additionalProperties?: unknown; items?: unknown; anyOf?: unknown[]; required?: string[] };

/**
 * A body schema whose top-level objects (the body itself, the items of an array body, the
 * branches of a union) drop fields they do not declare. The validator strips such fields
 * before any code sees the body (Ajv's removeAdditional), so a client may send a whole
 * object it read back (`id`, `owner_id`, `created_at`...) and only the declared fields
 * count; nothing undeclared can reach a column. Nested objects keep their own rule (free-form
 * JSON such as contact_data stays free-form). Returns a copy: body schemas are shared values.
 */
export function closedBodySchema<T>(schema: T): T {
  const close = (node: unknown): unknown => {
    if (!node || typeof node !== 'object') return node;
    const s = node as JsonSchema;
    if (Array.isArray(s.anyOf)) return { ...s, anyOf: s.anyOf.map(close) };
    if (s.type === 'array' && s.items) return { ...s, items: close(s.items) };
    if (s.properties && s.additionalProperties === undefined) return { ...s, additionalProperties: false };
    return s;
  };
  return close(schema) as T;
}

/**
 * Text in the query or path that PostgreSQL cannot store or compare (NUL, a lone surrogate)
 * is a 422 naming the parameter, before any handler runs: found by the database it was a 500.
 */
function refuseUnstorable(part: 'query' | 'path', values: unknown) {
  if (!values || typeof values !== 'object') return;
  for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
    const bad = unstorable(value);
    if (bad) throw unprocessable([part, name, ...bad.loc], bad.msg);
  }
}

/**
 * A query or path number that coerced to ±Infinity (`1e400`) is a 422. Ajv skips `minimum` and
 * `maximum` for a non-finite number it has just coerced from text, so the bounds let it through
 * and the database refused it (a 500).
 */
function refuseNonFinite(part: 'query' | 'path', values: unknown) {
  if (!values || typeof values !== 'object') return;
  for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
    const list = Array.isArray(value) ? value : [value];
    const at = list.findIndex((v) => typeof v === 'number' && !Number.isFinite(v));
    if (at !== -1) throw unprocessable(Array.isArray(value) ? [part, name, at] : [part, name], 'Input should be a finite number', 'finite_number');
  }
}

/**
 * A body in another media type than the route takes is a 415 that names the header: sent as a
 * form (curl -d without -H 'content-type: application/json'), a JSON body was read as one odd
 * form field and answered as if every field were missing.
 */
function refuseOtherMediaType(request: FastifyRequest, consumes: string[]) {
  const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return;
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (consumes.includes(type)) return;
  throw new HttpError(415, `Content-Type must be ${consumes.join(' or ')}; this request sent ${type || 'none'}`);
}

/**
 * The rules every route's input follows, attached when the route is declared: unknown body
 * fields dropped, query conventions applied, unstorable query and path text refused, numbers
 * beyond any bound refused, and a body whose fields are all optional may be left out.
 */
export function applyRequestInputRules(route: RouteOptions): void {
  if (route.schema?.body) route.schema = { ...route.schema, body: closedBodySchema(route.schema.body) };
  const normalise = queryNormaliser(route);
  const body = route.schema?.body as JsonSchema | undefined;
  // A body whose fields are all optional may be left out entirely (POST /api-keys, approve, ...).
  const optionalBody = body?.type === 'object' && !(body.required?.length);
  // The media types a body may come as: JSON unless the route says otherwise (login's form, the CSV upload).
  const consumes = route.schema?.body ? ((route.schema as { consumes?: string[] }).consumes ?? ['application/json']) : null;
  const existing = route.preValidation ? [route.preValidation].flat() : [];
  route.preValidation = [
    async (request: FastifyRequest) => {
      if (consumes) refuseOtherMediaType(request, consumes);
      refuseUnstorable('path', request.params);
      refuseUnstorable('query', request.query);
      normalise?.(request.query as Record<string, unknown>);
      if (optionalBody && (request.body === undefined || request.body === null)) request.body = {};
    },
    ...existing,
  ];
  const handlers = route.preHandler ? [route.preHandler].flat() : [];
  route.preHandler = [
    async (request: FastifyRequest) => {
      refuseNonFinite('path', request.params);
      refuseNonFinite('query', request.query);
    },
    ...handlers,
  ];
}

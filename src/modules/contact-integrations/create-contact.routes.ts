import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../app.ts';
import { HttpError } from '../../shared/errors.ts';
import { Detail, Id, ValidationDetail } from '../../shared/schemas.ts';
import { Contact } from '../contacts/contacts.schemas.ts';
import { createContactIntegrationsRepository } from './contact-integrations.repository.ts';
import { readContactInput, type InputSource } from './create-contact.input.ts';
import { authenticateIntegration, createOrUpdateContact, enforceRateLimit } from './create-contact.service.ts';

export const MAX_ARRAY_ITEMS = 100;
const BODY_LIMIT = 256 * 1024;

const params = {
  campaign_id: Type.Optional(Type.Unsafe<number>({ ...Id, description: 'one of the integration\'s campaigns (else 403); default: its first campaign' })),
  name: Type.Optional(Type.String({ description: 'stored as contact_data.name; when omitted, contact_data\'s name, fio, FIO or famili is used' })),
  phone: Type.Optional(Type.String({ description: 'the contact\'s phone (or msisdn); one of the two is required (422); stored as E.164' })),
  msisdn: Type.Optional(Type.String({ description: 'another name for phone' })),
  timezone: Type.Optional(Type.String({ description: 'IANA zone name stored in the contact\'s timezone (422 when unknown)' })),
  determine_timezone: Type.Optional(Type.Boolean({ description: 'overrides the integration setting: derive the zone from the phone number; null when the number maps to several zones' })),
};
const Query = Type.Object({
  token: Type.Optional(Type.String({ description: 'LEGACY, for simple forms: the integration token; prefer the Authorization header' })),
  ...params,
  contact_data: Type.Optional(Type.String({ description: 'JSON text of an object' })),
});
const BodyItem = Type.Object({
  token: Type.Optional(Type.String({ description: 'the integration token, used when there is no Authorization header' })),
  ...params,
  contact_data: Type.Optional(Type.Object({}, { additionalProperties: true })),
  start_call: Type.Optional(Type.Boolean({ description: 'queue a call for a new contact; honoured only here (JSON body of POST), never from the query; default: the integration\'s auto_start_calls (or the campaign\'s auto_calls)' })),
});
const Result = Type.Object({ ...Contact.properties, call_enqueued: Type.Boolean({ description: 'true when a call was queued by this request' }) });
const ItemError = Type.Object({ error: Type.Object({ status: Type.Integer(), detail: Type.Union([Type.String(), ValidationDetail.properties.detail]) }) });

const DESCRIPTION = `Creates a contact, or updates the contact its campaign already has for this phone (contact_data merged,
timezone set when given; no call is queued again). The answer is the contact plus call_enqueued.
Token: the first present of the Authorization: Bearer header, the body's token (in array mode: the first item carrying one),
the query's token (legacy). Missing or unknown token: 401. POST accepts a JSON object, a JSON array (at most ${MAX_ARRAY_ITEMS} items,
else 413) or a form; for a POST object, a parameter missing from the body is taken from the query. Array mode answers an array
with, per item, the contact or {error: {status, detail}}; one bad item does not fail the others. Body at most 256 KiB (413).
Rate limit per integration (its rate_limit_per_minute, default 600 contacts per minute, each array item counts): 429 with Retry-After.`;

function bearer(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/** The integration-token create-contact endpoint (mounted at /api/v1/contact-creation-integration; token authentication). */
export async function createContactRoutes(app: App) {
  const { db, config, clock } = app.deps;
  const repo = createContactIntegrationsRepository(db);

  // Contact rows carry status as text; the response schema serialises them as the API's enum.
  const handle = async (request: FastifyRequest): Promise<never> => (await handleAny(request)) as never;
  const handleAny = async (request: FastifyRequest) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const body = request.method === 'POST' ? (request.body as unknown) : undefined;
    const typed = request.method === 'POST' && (request.headers['content-type'] ?? '').includes('json');
    const isArray = Array.isArray(body);
    if (isArray && body.length > MAX_ARRAY_ITEMS) throw new HttpError(413, `At most ${MAX_ARRAY_ITEMS} contacts per request; this one has ${body.length}`);
    if (body !== undefined && body !== null && !isArray && typeof body !== 'object') throw new HttpError(422, [{ loc: ['body'], msg: 'Input should be an object or an array of objects', type: 'model_type' }]);

    const bodyObject = !isArray && body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const bodyToken = isArray ? (body as unknown[]).map((i) => str((i as Record<string, unknown> | null)?.token)).find((t) => t) ?? null : str(bodyObject.token);
    const integration = await authenticateIntegration(repo, bearer(request) ?? bodyToken ?? str(query.token));
    await enforceRateLimit({ repo, integration, weight: isArray ? Math.max(1, body.length) : 1, now: clock.now() });

    const one = (sources: InputSource[], loc: string) =>
      createOrUpdateContact({ db, integration, contact: readContactInput(sources), defaultCountry: config.DEFAULT_COUNTRY, loc, dialerWake: app.deps.dialerWake });

    if (!isArray) {
      const sources: InputSource[] = [];
      if (request.method === 'POST') sources.push({ values: bodyObject, loc: 'body', typed });
      sources.push({ values: query, loc: 'query', typed: false });
      return one(sources, sources[0]!.loc);
    }
    const results = [];
    for (const [i, item] of (body as unknown[]).entries()) {
      try {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new HttpError(422, [{ loc: ['body', i], msg: 'Input should be a valid dictionary or object', type: 'dict_type' }]);
        results.push(await one([{ values: item as Record<string, unknown>, loc: 'body', typed: true }], 'body'));
      } catch (error) {
        if (!(error instanceof HttpError)) {
          request.log.error({ err: error, item: i }, 'create-contact item failed');
          results.push({ error: { status: 500, detail: 'Internal Server Error' } });
          continue;
        }
        const detail = typeof error.detail === 'string' ? error.detail : error.detail.map((d) => ({ ...d, loc: d.loc[0] === 'body' && d.loc[1] !== i ? ['body', i, ...d.loc.slice(1)] : d.loc }));
        results.push({ error: { status: error.statusCode, detail } });
      }
    }
    return results;
  };

  const common = {
    // Parameters are read by the handler (query, JSON or form body, per-item errors in array mode); the schemas document them.
    validatorCompiler: () => () => true,
  };
  const responses = { 401: Detail, 403: Detail, 413: Detail, 422: ValidationDetail, 429: Detail };

  app.get(
    '/create-contact',
    {
      ...common,
      schema: {
        tags: ['contact-creation-integration'],
        summary: 'Create or update a contact with an integration token (query parameters)',
        description: `${DESCRIPTION}\nGET reads the query only; start_call is never read from the query.`,
        querystring: Query,
        response: { 200: Result, ...responses },
      },
    },
    handle,
  );

  app.post(
    '/create-contact',
    {
      ...common,
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['contact-creation-integration'],
        summary: 'Create or update one or several contacts with an integration token',
        description: DESCRIPTION,
        querystring: Query,
        // Web forms post urlencoded; CRMs post JSON.
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        body: Type.Union([BodyItem, Type.Array(BodyItem, { maxItems: MAX_ARRAY_ITEMS })]),
        response: { 200: Type.Union([Result, Type.Array(Type.Union([Result, ItemError]))]), ...responses },
      },
    },
    handle,
  );
}

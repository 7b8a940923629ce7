import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, createSubUser, type Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';

let t: TestApp;
let alice: Account;
let bob: Account;
let campaignId: number;
let bobCampaignId: number;

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  alice = await createAccount(t);
  bob = await createAccount(t);
  campaignId = (await seed(t.deps.db, { campaigns: [{ owner: alice }] })).campaigns[0].id;
  bobCampaignId = (await seed(t.deps.db, { campaigns: [{ owner: bob }] })).campaigns[0].id;
});
afterAll(() => t?.close());

const base = () => ({ url: 'https://crm.example.com/hooks/{{call.id}}', request_schema: 'name - the client name', campaign_ids: [campaignId] });
const create = (body: Record<string, unknown>, headers = alice.headers) => t.request({ method: 'POST', url: '/api/v1/integrations/webhooks', headers, payload: body });
const locs = (res: { json(): any }) => res.json().detail.map((d: { loc: (string | number)[] }) => d.loc.join('.'));

describe('creating a webhook integration', () => {
  it('applies every default of the API and shows the signing secret once', async () => {
    const res = await create(base());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      url: 'https://crm.example.com/hooks/{{call.id}}', auth_type: 'none', api_key_header: 'X-API-KEY', http_method: 'POST',
      allowed_hosts: 'crm.example.com', timeout: 30, save_data_use_url_params: false, only_interested: true, call_statuses: [],
      campaign_ids: [campaignId], instructions: {}, is_active: true, owner_id: alice.id,
    });
    expect(body.request_schema).toEqual({ type: 'object', properties: { name: { type: 'string', description: 'the client name' } }, required: ['name'], additionalProperties: false });
    expect(body.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const read = await t.request({ method: 'GET', url: `/api/v1/integrations/webhooks/${body.id}`, headers: alice.headers });
    expect(read.statusCode).toBe(200);
    expect(read.json()).not.toHaveProperty('signing_secret');
    expect(read.body).not.toContain(body.signing_secret.slice(6));
  });

  it('stores every setting and masks the secrets in every later answer', async () => {
    const password = 'basic-password-very-secret';
    const res = await create({ ...base(), auth_type: 'basic', basic_login: 'crm', basic_password: password, http_method: 'PUT', timeout: 120, save_data_use_url_params: true, only_interested: false, call_statuses: ['finished', 'voicemail', 'invalid number'], allowed_hosts: 'example.com, other.org', instructions: { name: 'Full name of {{contact_data.name}}' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ auth_type: 'basic', basic_login: 'crm', http_method: 'PUT', timeout: 120, save_data_use_url_params: true, only_interested: false, call_statuses: ['finished', 'voicemail', 'invalid number'], allowed_hosts: 'example.com,other.org' });
    expect(res.json().basic_password).not.toContain(password.slice(0, 8));
    const list = await t.request({ method: 'GET', url: '/api/v1/integrations/webhooks', headers: alice.headers });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(password);
    const bearer = await create({ ...base(), auth_type: 'bearer', bearer_token: 'tok-abcdefghijklmnop-1234' });
    expect(bearer.json().bearer_token).toBe('****1234');
    const key = await create({ ...base(), auth_type: 'api_key', api_key_value: 'k-1234567890abcdef-XYZW', api_key_header: 'X-Crm-Key' });
    expect(key.json()).toMatchObject({ api_key_value: '****XYZW', api_key_header: 'X-Crm-Key' });
  });

  it('answers 422 naming the field for each invalid setting', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ url: 'ftp://crm.example.com/x' }, 'body.url'],
      [{ url: 'not a url' }, 'body.url'],
      [{ url: 'https://crm.example.com/{{call.secret}}' }, 'body.url'],
      [{ timeout: 0 }, 'body.timeout'],
      [{ timeout: 121 }, 'body.timeout'],
      [{ http_method: 'GET' }, 'body.http_method'],
      [{ auth_type: 'digest' }, 'body.auth_type'],
      [{ auth_type: 'basic', basic_login: 'x' }, 'body.basic_password'],
      [{ auth_type: 'bearer' }, 'body.bearer_token'],
      [{ auth_type: 'api_key' }, 'body.api_key_value'],
      [{ api_key_header: 'bad header' }, 'body.api_key_header'],
      [{ call_statuses: ['in progress'] }, 'body.call_statuses.0'],
      [{ campaign_ids: [] }, 'body.campaign_ids'],
      [{ allowed_hosts: 'other.org' }, 'body.allowed_hosts'],
      [{ allowed_hosts: 'https://crm.example.com/' }, 'body.allowed_hosts'],
      [{ request_schema: 'just some words' }, 'body.request_schema'],
      [{ instructions: { unknown_field: 'x' } }, 'body.instructions.unknown_field'],
      [{ instructions: { name: '{{nope}}' } }, 'body.instructions.name'],
    ];
    for (const [change, loc] of cases) {
      const res = await create({ ...base(), ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(422);
      expect(locs(res).some((l: string) => l.startsWith(loc)), `${JSON.stringify(change)} -> ${res.body}`).toBe(true);
    }
    const missing = await t.request({ method: 'POST', url: '/api/v1/integrations/webhooks', headers: alice.headers, payload: { url: 'https://crm.example.com' } });
    expect(locs(missing)).toEqual(expect.arrayContaining(['body.request_schema', 'body.campaign_ids']));
  });

  it('requires the campaigns to exist (404) and to be the caller\'s (403)', async () => {
    expect((await create({ ...base(), campaign_ids: [999999] })).statusCode).toBe(404);
    const other = await create({ ...base(), campaign_ids: [campaignId, bobCampaignId] });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ detail: 'Not enough permissions' });
  });

  it('lets only the account holder change integrations; a sub-user reads those of its granted campaigns', async () => {
    const sub = await createSubUser(t, alice.id);
    const headers = sub.headers;
    const mine = (await create(base())).json();
    expect((await create(base(), headers)).statusCode).toBe(403);
    expect((await t.request({ method: 'PUT', url: `/api/v1/integrations/webhooks/${mine.id}`, headers, payload: { timeout: 5 } })).statusCode).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/integrations/webhooks/${mine.id}`, headers })).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: `/api/v1/integrations/webhooks/${mine.id}/test`, headers })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/api/v1/integrations/webhooks/${mine.id}`, headers })).statusCode).toBe(403);
    await seed(t.deps.db, { grants: [{ campaign: { id: campaignId, owner_id: alice.id }, subUser: sub }] });
    const read = await t.request({ method: 'GET', url: `/api/v1/integrations/webhooks/${mine.id}`, headers });
    expect(read.statusCode).toBe(200);
  });
});

describe('reading, changing and deleting', () => {
  it('never shows another account\'s integration: 403 on read, change and delete, absent from lists', async () => {
    const mine = (await create(base())).json();
    const list = await t.request({ method: 'GET', url: '/api/v1/integrations/webhooks', headers: bob.headers });
    expect(list.json().data.map((i: { id: number }) => i.id)).not.toContain(mine.id);
    for (const [method, url] of [['GET', ''], ['PUT', ''], ['DELETE', ''], ['GET', '/deliveries'], ['POST', '/test']] as const) {
      const res = await t.request({ method, url: `/api/v1/integrations/webhooks/${mine.id}${url}`, headers: bob.headers, ...(method === 'PUT' ? { payload: { timeout: 5 } } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await t.request({ method: 'GET', url: '/api/v1/integrations/webhooks/999999', headers: alice.headers })).statusCode).toBe(404);
  });

  it('changes only the named settings, keeps omitted secrets and re-derives the allowed host from a new URL', async () => {
    const created = (await create({ ...base(), auth_type: 'bearer', bearer_token: 'keep-this-token-123456' })).json();
    const res = await t.request({ method: 'PUT', url: `/api/v1/integrations/webhooks/${created.id}`, headers: alice.headers, payload: { url: 'https://hooks.other.org/in', timeout: 7, request_schema: { email: 'the e-mail' } } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ url: 'https://hooks.other.org/in', allowed_hosts: 'hooks.other.org', timeout: 7, auth_type: 'bearer', bearer_token: '****3456' });
    expect(Object.keys(res.json().request_schema.properties)).toEqual(['email']);
    // Kept, and still sealed at rest: the database holds no credential in the clear.
    const row = await t.deps.db.selectFrom('webhook_integrations').select(['bearer_token', 'signing_secret']).where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.bearer_token).toMatch(/^sealed:v1:/);
    expect(row.bearer_token).not.toContain('keep-this-token');
    expect(t.deps.secrets.open(row.bearer_token)).toBe('keep-this-token-123456');
    expect(row.signing_secret).toMatch(/^sealed:v1:/);
    expect(t.deps.secrets.open(row.signing_secret)).toBe(created.signing_secret);
    const bad = await t.request({ method: 'PUT', url: `/api/v1/integrations/webhooks/${created.id}`, headers: alice.headers, payload: { bearer_token: null } });
    expect(bad.statusCode).toBe(422);
    expect(locs(bad)).toContain('body.bearer_token');
    const del = await t.request({ method: 'DELETE', url: `/api/v1/integrations/webhooks/${created.id}`, headers: alice.headers });
    expect(del.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/v1/integrations/webhooks/${created.id}`, headers: alice.headers })).statusCode).toBe(404);
  });
});

describe('request schema forms', () => {
  const schemaOf = async (request_schema: unknown) => {
    const res = await create({ ...base(), request_schema });
    return { status: res.statusCode, schema: res.json().request_schema, body: res.json() };
  };

  it('infers types from an example object, null becoming a nullable string', async () => {
    const { schema } = await schemaOf({ name: 'Ann', age: 42, score: 4.5, agreed: true, note: null });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', examples: ['Ann'] }, age: { type: 'integer', examples: [42] }, score: { type: 'number', examples: [4.5] },
        agreed: { type: 'boolean', examples: [true] }, note: { type: ['string', 'null'] },
      },
      required: ['name', 'age', 'score', 'agreed', 'note'],
      additionalProperties: false,
    });
  });

  it('reads an object of field -> description, and the same as JSON text', async () => {
    const expected = { type: 'object', properties: { city: { type: 'string', description: 'the city' }, budget: { type: 'string', description: 'the budget' } }, required: ['city', 'budget'], additionalProperties: false };
    expect((await schemaOf({ city: 'the city', budget: 'the budget' })).schema).toEqual(expected);
    expect((await schemaOf('{"city": "the city", "budget": "the budget"}')).schema).toEqual(expected);
  });

  it('reads plain lines with a hyphen, an en dash or an em dash', async () => {
    const { schema } = await schemaOf('name - client name\n\nemail – e-mail address\r\nmeeting_date — date of the meeting');
    expect(schema.properties).toEqual({ name: { type: 'string', description: 'client name' }, email: { type: 'string', description: 'e-mail address' }, meeting_date: { type: 'string', description: 'date of the meeting' } });
    expect(schema.required).toEqual(['name', 'email', 'meeting_date']);
  });

  it('keeps a full JSON Schema with nullable types, enums and its own required list', async () => {
    const input = { type: 'object', properties: { interested: { type: 'boolean' }, budget: { type: ['integer', 'null'], description: 'USD' }, plan: { type: 'string', enum: ['basic', 'pro'] } }, required: ['interested'], additionalProperties: false };
    expect((await schemaOf(input)).schema).toEqual(input);
  });

  it('rejects what cannot be normalised with a 422 that says why', async () => {
    const cases: [unknown, RegExp][] = [
      [{ 'bad-name': 'x' }, /letters, digits and underscore/],
      ['good - fine\nthis line has no dash', /line 2/],
      ['{"a": ', /does not parse/],
      [{ nested: { a: 1 }, n: 1 }, /nested/],
      [{ type: 'object', properties: { a: { type: 'array' } } }, /type must be/],
      [{ type: 'object', properties: { a: { type: 'string' } }, required: ['b'] }, /unknown fields: b/],
      [{ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true }, /additionalProperties/],
      [{ type: 'object', properties: {} }, /no fields/],
      ['[1, 2]', /must be a JSON object/],
    ];
    for (const [input, why] of cases) {
      const res = await schemaOf(input);
      expect(res.status, JSON.stringify(input)).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'request_schema']);
      expect(res.body.detail[0].msg).toMatch(why);
    }
  });
});

describe('interface description', () => {
  it('documents every webhook operation in the OpenAPI document', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths;
    for (const path of ['/api/v1/integrations/webhooks/', '/api/v1/integrations/webhooks/{id}', '/api/v1/integrations/webhooks/{id}/deliveries', '/api/v1/integrations/webhooks/{id}/test', '/api/v1/integrations/webhooks/{id}/deliveries/{delivery_id}/redeliver']) {
      expect(paths[path] ?? paths[path.replace(/\/$/, '')], path).toBeDefined();
    }
    expect(JSON.stringify(paths['/api/v1/integrations/webhooks/'] ?? paths['/api/v1/integrations/webhooks'])).toContain('webhook-signature');
  });
});


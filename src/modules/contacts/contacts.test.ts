import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, type Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';

let t: TestApp;
let alice: Account;
let campaign: { id: number; title: string; owner_id: number };

beforeAll(async () => {
  t = await createTestApp();
  alice = await createAccount(t);
  [campaign] = (await seed(t.deps.db, { campaigns: [{ owner: alice, title: 'Spring outreach' }] })).campaigns;
});
afterAll(() => t?.close());

const post = (payload: object, headers = alice.headers) => t.request({ method: 'POST', url: '/api/v1/contacts/', headers, payload });

describe('creating a contact', () => {
  it('stores the number in E.164, joins the campaign title and answers every Contact field', async () => {
    const res = await post({ status: 'new', campaign_id: campaign.id, phone_number: '(415) 555-2671', contact_data: { name: 'Ada', tags: ['x'] }, source: 'crm' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      campaign_id: campaign.id,
      phone_number: '+14155552671',
      status: 'new',
      contact_data: { name: 'Ada', tags: ['x'] },
      source: 'crm',
      creation_method: 'external_api',
      campaign_title: 'Spring outreach',
      calls_attempts: 0,
      message_attempts: 0,
      next_action_time: null,
      next_action_reason: null,
      next_action_code: null,
    });
    expect(Object.keys(body).sort()).toEqual(
      ['id', 'campaign_id', 'phone_number', 'status', 'contact_data', 'timezone', 'source', 'creation_method', 'campaign_title', 'calls_attempts', 'message_attempts', 'next_action_time', 'next_action_reason', 'next_action_code', 'created_at', 'updated_at'].sort(),
    );
    expect(new Date(body.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const read = await t.request({ method: 'GET', url: `/api/v1/contacts/${body.id}`, headers: alice.headers });
    expect(read.json()).toEqual(body);
  });

  it('sets the time zone from the number when omitted and keeps a given IANA zone', async () => {
    const guessed = await post({ status: 'new', campaign_id: campaign.id, phone_number: '+14155550101' });
    expect(guessed.json().timezone).toBe('America/Los_Angeles');
    const given = await post({ status: 'new', campaign_id: campaign.id, phone_number: '+14155550102', timezone: 'Europe/Berlin' });
    expect(given.json().timezone).toBe('Europe/Berlin');
    // A new number moves a guessed zone with it (New York to Los Angeles), never a given one.
    const moved = await post({ status: 'new', campaign_id: campaign.id, phone_number: '+12125556543' });
    expect(moved.json().timezone).toBe('America/New_York');
    const put = (id: number, payload: object) => t.request({ method: 'PUT', url: `/api/v1/contacts/${id}`, headers: alice.headers, payload });
    expect((await put(moved.json().id, { phone_number: '+13105556543' })).json().timezone).toBe('America/Los_Angeles');
    expect((await put(given.json().id, { phone_number: '+12125556544' })).json().timezone).toBe('Europe/Berlin');
    expect((await put(moved.json().id, { phone_number: '+12125556545', timezone: 'Asia/Tokyo' })).json().timezone).toBe('Asia/Tokyo');
  });

  it('accepts creation_method, next_action fields, created_at and updated_at from the body', async () => {
    const res = await post({
      status: 'call_scheduled',
      campaign_id: campaign.id,
      phone_number: '+4930901820',
      creation_method: 'manual',
      next_action_time: '2030-01-02T03:04:05Z',
      next_action_reason: 'callback asked',
      created_at: '2024-05-06T07:08:09+02:00',
      updated_at: '2024-05-07T00:00:00Z',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      phone_number: '+4930901820',
      status: 'call_scheduled',
      creation_method: 'manual',
      next_action_time: '2030-01-02T03:04:05.000Z',
      next_action_reason: 'callback asked',
      created_at: '2024-05-06T05:08:09.000Z',
      updated_at: '2024-05-07T00:00:00.000Z',
    });
  });

  it('answers 409 naming the number and campaign for a second contact with the same number, however it is written', async () => {
    const first = await post({ status: 'new', campaign_id: campaign.id, phone_number: '+1 415 555 0199' });
    expect(first.statusCode).toBe(200);
    const second = await post({ status: 'failed', campaign_id: campaign.id, phone_number: '415-555-0199' });
    expect(second.statusCode).toBe(409);
    expect(second.json().detail).toContain('+14155550199');
    expect(second.json().detail).toContain(String(campaign.id));
    const { campaigns: [other] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    expect((await post({ status: 'new', campaign_id: other.id, phone_number: '4155550199' })).statusCode).toBe(200);
  });

  it('answers 409 to only one of two concurrent creates of the same number', async () => {
    const [a, b] = await Promise.all([
      post({ status: 'new', campaign_id: campaign.id, phone_number: '+14155550177' }),
      post({ status: 'new', campaign_id: campaign.id, phone_number: '+14155550177' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
  });

  it('rejects text that is not a phone number with 422 at body.phone_number', async () => {
    for (const phone_number of ['not a phone', '123', '+999 1234', '']) {
      const res = await post({ status: 'new', campaign_id: campaign.id, phone_number });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['body', 'phone_number']);
    }
  });

  it('rejects an unknown time zone with 422 at body.timezone', async () => {
    const res = await post({ status: 'new', campaign_id: campaign.id, phone_number: '+14155550103', timezone: 'Mars/Olympus' });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0].loc).toEqual(['body', 'timezone']);
  });

  it('rejects a status or creation_method outside the enums, missing required fields and a malformed body with 422', async () => {
    const badStatus = await post({ status: 'in_progress', campaign_id: campaign.id, phone_number: '+14155550104' });
    expect(badStatus.statusCode).toBe(422);
    expect(badStatus.json().detail[0]).toMatchObject({ loc: ['body', 'status'], type: 'enum' });
    expect(badStatus.json().detail[0].msg).toContain("'in progress'");
    const badMethod = await post({ status: 'new', campaign_id: campaign.id, phone_number: '+14155550104', creation_method: 'fax' });
    expect(badMethod.json().detail[0].loc).toEqual(['body', 'creation_method']);
    const missing = await post({ contact_data: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail.map((d: { loc: string[] }) => d.loc[1]).sort()).toEqual(['campaign_id', 'phone_number', 'status']);
    const badData = await post({ status: 'new', campaign_id: campaign.id, phone_number: '+14155550104', contact_data: 'text' });
    expect(badData.json().detail[0].loc).toEqual(['body', 'contact_data']);
    const malformed = await t.request({ method: 'POST', url: '/api/v1/contacts/', headers: { ...alice.headers, 'content-type': 'application/json' }, payload: '{"status":' });
    expect(malformed.statusCode).toBe(422);
  });

  it('accepts the status "in progress" with its space', async () => {
    const res = await post({ status: 'in progress', campaign_id: campaign.id, phone_number: '+14155550105' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('in progress');
  });

  it('queues the new contact when its campaign has auto_calls, and only then', async () => {
    const { campaigns: [auto] } = await seed(t.deps.db, { campaigns: [{ owner: alice, auto_calls: true }] });
    const queued = await post({ status: 'new', campaign_id: auto.id, phone_number: '+14155550106' });
    expect(queued.json().status).toBe('added_to_queue');
    const row = await t.deps.db.selectFrom('contacts').select(['status', 'next_action_time', 'next_action_reason']).where('id', '=', queued.json().id).executeTakeFirstOrThrow();
    expect(row.status).toBe('added_to_queue');
    expect(row.next_action_time).not.toBeNull();
    expect(row.next_action_reason).toContain('auto_calls');
    const manual = await post({ status: 'new', campaign_id: campaign.id, phone_number: '+14155550106' });
    expect(manual.json().status).toBe('new');
  });

  it('answers 404 for an unknown campaign and 401 without credentials', async () => {
    expect((await post({ status: 'new', campaign_id: 987654, phone_number: '+14155550107' })).statusCode).toBe(404);
    expect((await post({ status: 'new', campaign_id: campaign.id, phone_number: '+14155550107' }, {})).statusCode).toBe(401);
  });
});

describe('updating a contact', () => {
  it('changes only the fields sent and re-normalises a new number', async () => {
    const created = (await post({ status: 'new', campaign_id: campaign.id, phone_number: '+14155550110', contact_data: { a: 1 }, source: 'web' })).json();
    const res = await t.request({ method: 'PUT', url: `/api/v1/contacts/${created.id}`, headers: alice.headers, payload: { phone_number: '(415) 555-0111', status: 'paused', timezone: 'America/New_York' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: created.id, phone_number: '+14155550111', status: 'paused', timezone: 'America/New_York', contact_data: { a: 1 }, source: 'web', campaign_title: 'Spring outreach' });
    expect(new Date(res.json().updated_at).getTime()).toBeGreaterThanOrEqual(new Date(created.updated_at).getTime());
    const cleared = await t.request({ method: 'PUT', url: `/api/v1/contacts/${created.id}`, headers: alice.headers, payload: { source: null, contact_data: { b: 2 }, next_action_time: null, timezone: null } });
    expect(cleared.json()).toMatchObject({ source: null, contact_data: { b: 2 }, status: 'paused', next_action_time: null, timezone: null });
  });

  it('answers 409 when the new number belongs to another contact of the campaign, and 422 for a bad number, zone or status', async () => {
    const a = (await post({ status: 'new', campaign_id: campaign.id, phone_number: '+14155550120' })).json();
    const b = (await post({ status: 'new', campaign_id: campaign.id, phone_number: '+14155550121' })).json();
    const clash = await t.request({ method: 'PUT', url: `/api/v1/contacts/${b.id}`, headers: alice.headers, payload: { phone_number: '415 555 0120' } });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().detail).toContain('+14155550120');
    const same = await t.request({ method: 'PUT', url: `/api/v1/contacts/${a.id}`, headers: alice.headers, payload: { phone_number: '+14155550120' } });
    expect(same.statusCode).toBe(200);
    for (const [payload, field] of [[{ phone_number: 'nope' }, 'phone_number'], [{ timezone: 'Nowhere/Town' }, 'timezone'], [{ status: 'done' }, 'status']] as const) {
      const res = await t.request({ method: 'PUT', url: `/api/v1/contacts/${a.id}`, headers: alice.headers, payload });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['body', field]);
    }
  });

  it('answers 404 for an unknown contact and 422 for a non-integer id', async () => {
    expect((await t.request({ method: 'PUT', url: '/api/v1/contacts/999999', headers: alice.headers, payload: { status: 'new' } })).statusCode).toBe(404);
    const res = await t.request({ method: 'GET', url: '/api/v1/contacts/abc', headers: alice.headers });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0].loc).toEqual(['path', 'id']);
  });
});

describe('deleting a contact', () => {
  it('answers the Message object, removes the contact and its calls, and a second delete is 404', async () => {
    const created = (await post({ status: 'new', campaign_id: campaign.id, phone_number: '+14155550130' })).json();
    const { calls: [{ id: callId }] } = await seed(t.deps.db, { calls: [{ contact: { ...created, owner_id: alice.id }, to_number: created.phone_number }] });
    const res = await t.request({ method: 'DELETE', url: `/api/v1/contacts/${created.id}`, headers: alice.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Contact deleted', user_id: alice.id, campaign_id: campaign.id, contact_id: created.id, call_id: null, role_id: 'user', source: 'api' });
    expect((await t.request({ method: 'GET', url: `/api/v1/contacts/${created.id}`, headers: alice.headers })).statusCode).toBe(404);
    expect(await t.deps.db.selectFrom('calls').select('id').where('id', '=', callId).executeTakeFirst()).toBeUndefined();
    expect((await t.request({ method: 'DELETE', url: `/api/v1/contacts/${created.id}`, headers: alice.headers })).statusCode).toBe(404);
  });
});

describe('the OpenAPI document', () => {
  it('describes every contacts and calls operation with its parameters, errors and decisions', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    // The document may list the API's "/api/v1/contacts/" without its trailing slash; both are served.
    const op = (path: string, method: string) => (doc.paths[path] ?? doc.paths[path.replace(/\/$/, '')])?.[method];
    for (const [path, method] of [
      ['/api/v1/contacts/', 'get'], ['/api/v1/contacts/', 'post'], ['/api/v1/contacts/campaign/{campaign_id}', 'get'],
      ['/api/v1/contacts/{id}', 'get'], ['/api/v1/contacts/{id}', 'put'], ['/api/v1/contacts/{id}', 'delete'],
      ['/api/v1/calls/', 'get'], ['/api/v1/calls/{id}', 'get'],
    ] as const) {
      expect(op(path, method), `${method} ${path}`).toBeDefined();
      expect(op(path, method).responses).toHaveProperty('422');
      expect(op(path, method).responses).toHaveProperty('403');
    }
    expect(op('/api/v1/contacts/', 'post').responses).toHaveProperty('409');
    expect(op('/api/v1/contacts/', 'post').description).toContain('external_api');
    expect(op('/api/v1/contacts/{id}', 'delete').description).toContain('Contact deleted');
    const names = (path: string, method: string) => op(path, method).parameters.map((p: { name: string }) => p.name).sort();
    expect(names('/api/v1/contacts/', 'get')).toEqual(
      ['skip', 'limit', 'campaign_id', 'phone_number', 'status', 'created_at_from', 'created_at_to', 'calls_attempts_from', 'calls_attempts_to'].sort(),
    );
    expect(names('/api/v1/calls/', 'get')).toEqual(
      ['skip', 'limit', 'phone_number', 'from_number', 'status', 'action_status', 'start_time_from', 'start_time_to', 'end_time_from', 'end_time_to',
        'duration_from', 'duration_to', 'cost_from', 'cost_to', 'campaign_id', 'contact_id', 'call_id', 'call_type', 'call_data', 'after_id',
        // Issue 28: a call's score on its campaign's scorecard (call_scores).
        'score_min', 'score_max', 'score_tag'].sort(),
    );
    const limit = op('/api/v1/calls/', 'get').parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ default: 20, maximum: 1000, minimum: 1 });
  });
});

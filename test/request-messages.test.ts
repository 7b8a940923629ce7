import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createAccount, type Account } from './helpers/factories.ts';

/**
 * What a person reads when a request is wrong in form rather than content: the wrong content
 * type, a method the path does not take, an unknown time zone anywhere. Each says what to do,
 * and nothing is written.
 */
let t: TestApp;
let alice: Account;
let campaignId: number;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createAccount(t);
  campaignId = (await t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: alice.headers, payload: { title: 'Messages', campaign_type: 'Outbound' } })).json().id;
});
afterAll(() => t?.close());

const campaignCount = async () => Number((await t.deps.db.selectFrom('campaigns').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('content type', () => {
  it.each([
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    ['text/plain', 'text/plain'],
  ])('answers a JSON body sent as %s with 415 naming the header, and creates nothing', async (contentType, named) => {
    const before = await campaignCount();
    const res = await t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: { ...alice.headers, 'content-type': contentType }, payload: '{"title":"x","campaign_type":"Outbound"}' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ detail: `Content-Type must be application/json; this request sent ${named}` });
    expect(await campaignCount()).toBe(before);
  });

  it('still takes the login form and a web form posted to the integration endpoint', async () => {
    const login = await t.request({ method: 'POST', url: '/api/v1/login/access-token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ username: alice.email, password: alice.password }).toString() });
    expect(login.statusCode).toBe(200);
    const integration = (await t.request({ method: 'POST', url: '/api/v1/integrations/contact-creation/', headers: alice.headers, payload: { name: 'form', campaign_ids: [campaignId] } })).json();
    const form = await t.request({ method: 'POST', url: '/api/v1/contact-creation-integration/create-contact', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${integration.token}` }, payload: 'phone=%2B12125550177&name=Ann' });
    expect(form.statusCode, form.body).toBe(200);
  });
});

describe('methods', () => {
  it('answers a method the path does not take with 405 and Allow, an unknown path with 404', async () => {
    const res = await t.request({ method: 'DELETE', url: `/api/v1/campaigns/${campaignId}`, headers: alice.headers });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, PUT');
    expect(res.json().detail).toBe('Method DELETE is not allowed here; this path answers GET, HEAD, PUT');
    expect(await campaignCount()).toBeGreaterThan(0);
    expect((await t.request({ method: 'PATCH', url: '/api/v1/contacts/', headers: alice.headers })).headers.allow).toBe('GET, HEAD, POST');
    expect((await t.request({ method: 'GET', url: '/api/v1/no-such-thing', headers: alice.headers })).statusCode).toBe(404);
  });
});

describe('time zones', () => {
  it('words an unknown zone the same way for a contact, a work schedule, a web form and analytics', async () => {
    const zone = 'Mars/Olympus_Mons';
    const integration = (await t.request({ method: 'POST', url: '/api/v1/integrations/contact-creation/', headers: alice.headers, payload: { name: 'tz', campaign_ids: [campaignId] } })).json();
    const answers = await Promise.all([
      t.request({ method: 'POST', url: '/api/v1/contacts/', headers: alice.headers, payload: { status: 'new', campaign_id: campaignId, phone_number: '+12125550190', timezone: zone } }),
      t.request({ method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, headers: alice.headers, payload: { work_schedule: { timezone: zone } } }),
      t.request({ method: 'POST', url: '/api/v1/contact-creation-integration/create-contact', headers: { authorization: `Bearer ${integration.token}` }, payload: { phone: '+12125550191', timezone: zone } }),
      t.request({ method: 'GET', url: `/api/v1/analytics/detailed?timezone=${zone}`, headers: alice.headers }),
    ]);
    const details = answers.map((res) => {
      expect(res.statusCode, res.body).toBe(422);
      return res.json().detail[0];
    });
    const expected = `'${zone}' is not an IANA time zone name (e.g. Europe/Berlin, America/New_York)`;
    for (const d of details) expect(d.msg).toBe(expected);
    expect(new Set(details.map((d) => d.type))).toEqual(new Set(['timezone']));
  });
});

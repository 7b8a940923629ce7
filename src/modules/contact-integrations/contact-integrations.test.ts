import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { appWithAccounts, type Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { usPhone } from '../../../test/helpers/imports.ts';

let t: TestApp;
let alice: Account;
let bob: Account;

beforeAll(async () => void ({ t, alice, bob } = await appWithAccounts()));
afterAll(() => t?.close());

const BASE = '/api/v1/integrations/contact-creation';
const ENDPOINT = '/api/v1/contact-creation-integration/create-contact';

async function integration(owner: Account, body: Record<string, unknown>) {
  const res = await t.request({ method: 'POST', url: BASE, headers: owner.headers, payload: { name: 'Web form', ...body } });
  if (res.statusCode !== 200) throw new Error(`create integration: ${res.statusCode} ${res.body}`);
  return res.json() as { id: number; token: string; masked_token: string; campaign_ids: number[] };
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const post = (payload: unknown, headers: Record<string, string> = {}, query = '') =>
  t.request({ method: 'POST', url: `${ENDPOINT}${query}`, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(payload) });
const get = (query: Record<string, string>, headers: Record<string, string> = {}) =>
  t.request({ method: 'GET', url: `${ENDPOINT}?${new URLSearchParams(query)}`, headers });

describe('managing integrations', () => {
  it('shows the token once, stores only its digest, and lists it masked', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const created = await integration(alice, { campaign_ids: [campaign.id], auto_start_calls: true });
    expect(created.token).toMatch(/^vci_/);
    expect(created).toMatchObject({ campaign_ids: [campaign.id], auto_start_calls: true, determine_timezone: false, rate_limit_per_minute: 600 });
    expect(created.token.startsWith(created.masked_token.replace('****', ''))).toBe(true);
    const row = await t.deps.db.selectFrom('contact_integrations').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(created.token);
    for (const url of [BASE, `${BASE}/${created.id}`]) {
      const res = await t.request({ method: 'GET', url, headers: alice.headers });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(created.token);
      expect(res.body).toContain(created.masked_token);
    }
  });

  it('checks every campaign: another account\'s is 403, an unknown one 404, none is 422', async () => {
    const { campaigns: [mine] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { campaigns: [theirs] } = await seed(t.deps.db, { campaigns: [{ owner: bob }] });
    const res = (campaign_ids: number[]) => t.request({ method: 'POST', url: BASE, headers: alice.headers, payload: { name: 'x', campaign_ids } });
    expect((await res([mine.id, theirs.id])).statusCode).toBe(403);
    expect((await res([mine.id, 99999999])).statusCode).toBe(404);
    expect((await res([])).statusCode).toBe(422);
    expect((await t.request({ method: 'GET', url: BASE, headers: alice.headers })).json().map((i: { name: string }) => i.name)).not.toContain('x');
  });

  it('updates settings, keeps another account away, regenerates and revokes the token', async () => {
    const { campaigns: [first] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { campaigns: [second] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const created = await integration(alice, { campaign_ids: [first.id] });
    const updated = await t.request({ method: 'PUT', url: `${BASE}/${created.id}`, headers: alice.headers, payload: { campaign_ids: [second.id, first.id], determine_timezone: true } });
    expect(updated.json()).toMatchObject({ campaign_ids: [second.id, first.id], determine_timezone: true, name: 'Web form' });
    expect((await t.request({ method: 'GET', url: `${BASE}/${created.id}`, headers: bob.headers })).statusCode).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `${BASE}/${created.id}`, headers: bob.headers })).statusCode).toBe(403);

    const regenerated = await t.request({ method: 'POST', url: `${BASE}/${created.id}/regenerate-token`, headers: alice.headers });
    const fresh = regenerated.json().token;
    expect(fresh).not.toBe(created.token);
    expect((await post({ phone: usPhone(1) }, auth(created.token))).statusCode).toBe(401);
    const ok = await post({ phone: usPhone(1) }, auth(fresh));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().campaign_id).toBe(second.id);

    expect((await t.request({ method: 'DELETE', url: `${BASE}/${created.id}`, headers: alice.headers })).statusCode).toBe(200);
    expect((await post({ phone: usPhone(2) }, auth(fresh))).statusCode).toBe(401);
  });
});

describe('create-contact', () => {
  it('takes the token from the header before the body, and from the body before the query', async () => {
    const a = await integration(alice, { campaign_ids: [(await seed(t.deps.db, { campaigns: [{ owner: alice }] })).campaigns[0].id] });
    const b = await integration(alice, { campaign_ids: [(await seed(t.deps.db, { campaigns: [{ owner: alice }] })).campaigns[0].id] });
    const c = await integration(alice, { campaign_ids: [(await seed(t.deps.db, { campaigns: [{ owner: alice }] })).campaigns[0].id] });
    const header = await post({ phone: usPhone(10), token: b.token }, auth(a.token), `?token=${c.token}`);
    expect(header.json().campaign_id).toBe(a.campaign_ids[0]);
    const body = await post({ phone: usPhone(11), token: b.token }, {}, `?token=${c.token}`);
    expect(body.json().campaign_id).toBe(b.campaign_ids[0]);
    const query = await get({ phone: usPhone(12), token: c.token });
    expect(query.json().campaign_id).toBe(c.campaign_ids[0]);
    expect((await post({ phone: usPhone(13), token: 'vci_wrong' }, {}, `?token=${c.token}`)).statusCode).toBe(401);
    expect((await post({ phone: usPhone(13) })).statusCode).toBe(401);
    expect((await get({ phone: usPhone(13) }, auth('vci_wrong'))).statusCode).toBe(401);
  });

  it('creates a contact from the query with contact_data as JSON text and answers the contact with call_enqueued', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice, title: 'Leads' }] });
    const { token } = await integration(alice, { campaign_ids: [campaign.id] });
    const res = await get({ token, msisdn: '212 200 0100', contact_data: JSON.stringify({ fio: 'Ivan Petrov', city: 'Moscow' }), timezone: 'Europe/Moscow', start_call: 'true' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      campaign_id: campaign.id,
      campaign_title: 'Leads',
      phone_number: '+12122000100',
      status: 'new',
      creation_method: 'integration',
      timezone: 'Europe/Moscow',
      contact_data: { fio: 'Ivan Petrov', city: 'Moscow', name: 'Ivan Petrov' },
      call_enqueued: false,
    });
  });

  it('picks the name from name, else contact_data name, fio, FIO or famili', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { token } = await integration(alice, { campaign_ids: [campaign.id] });
    const cases: [Record<string, unknown>, string | undefined][] = [
      [{ name: 'Given', contact_data: { fio: 'Other' } }, 'Given'],
      [{ contact_data: { FIO: 'Upper' } }, 'Upper'],
      [{ contact_data: { famili: 'Family' } }, 'Family'],
      [{ contact_data: { fio: 'Lower', FIO: 'Upper' } }, 'Lower'],
      [{ contact_data: { city: 'Nowhere' } }, undefined],
    ];
    for (const [i, [body, expected]] of cases.entries()) {
      const res = await post({ phone: usPhone(200 + i), ...body }, auth(token));
      expect(res.json().contact_data.name).toBe(expected);
    }
  });

  it('takes a POST object\'s missing parameters from the query, but never start_call', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { campaigns: [other] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { token } = await integration(alice, { campaign_ids: [campaign.id, other.id] });
    const res = await post({ phone: usPhone(300) }, auth(token), `?campaign_id=${other.id}&name=FromQuery&start_call=true`);
    expect(res.json()).toMatchObject({ campaign_id: other.id, contact_data: { name: 'FromQuery' }, call_enqueued: false, status: 'new' });
  });

  it('queues a new contact when start_call or the integration says so, and updates an existing one without queueing again', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { token } = await integration(alice, { campaign_ids: [campaign.id], auto_start_calls: true });
    const first = await post({ phone: usPhone(400), contact_data: { a: 1 } }, auth(token));
    expect(first.json()).toMatchObject({ call_enqueued: true, status: 'added_to_queue' });
    await t.deps.db.updateTable('contacts').set({ status: 'finished' }).where('id', '=', first.json().id).execute();
    const again = await post({ phone: '(212) 200-0400', contact_data: { b: 2 }, timezone: 'America/Chicago', start_call: true }, auth(token));
    expect(again.json()).toMatchObject({ id: first.json().id, call_enqueued: false, status: 'finished', contact_data: { a: 1, b: 2 }, timezone: 'America/Chicago' });
    const optOut = await post({ phone: usPhone(401), start_call: false }, auth(token));
    expect(optOut.json()).toMatchObject({ call_enqueued: false, status: 'new' });

    const quiet = await integration(alice, { campaign_ids: [campaign.id] });
    expect((await post({ phone: usPhone(402), start_call: true }, auth(quiet.token))).json().call_enqueued).toBe(true);
    expect((await get({ phone: usPhone(403), start_call: 'true' }, auth(quiet.token))).json().call_enqueued).toBe(false);
  });

  it('derives the time zone from the phone when asked, and leaves it null when the number spans several zones', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const on = await integration(alice, { campaign_ids: [campaign.id], determine_timezone: true });
    const off = await integration(alice, { campaign_ids: [campaign.id] });
    expect((await post({ phone: '+79161234567' }, auth(on.token))).json().timezone).toBe('Europe/Moscow');
    expect((await post({ phone: '+18002000000' }, auth(on.token))).json().timezone).toBeNull();
    expect((await post({ phone: '+4930123456' }, auth(off.token))).json().timezone).toBeNull();
    expect((await get({ phone: '+61212345678', determine_timezone: 'true' }, auth(off.token))).json().timezone).toBe('Australia/Sydney');
    expect((await post({ phone: '+4930123457', determine_timezone: false }, auth(on.token))).json().timezone).toBeNull();
    expect((await post({ phone: '+4930123458', timezone: 'Asia/Tokyo' }, auth(on.token))).json().timezone).toBe('Asia/Tokyo');
  });

  it('answers 422 for a missing or invalid phone and an unknown time zone, 403 for a campaign outside the integration', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { campaigns: [outside] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { token } = await integration(alice, { campaign_ids: [campaign.id] });
    const missing = await post({ name: 'No phone' }, auth(token));
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail[0].loc).toEqual(['body', 'phone']);
    expect((await get({ phone: 'nope' }, auth(token))).statusCode).toBe(422);
    const tz = await post({ phone: usPhone(500), timezone: 'Mars/Olympus' }, auth(token));
    expect(tz.statusCode).toBe(422);
    expect(tz.json().detail[0].loc).toEqual(['body', 'timezone']);
    expect((await get({ phone: usPhone(501), contact_data: '{not json' }, auth(token))).statusCode).toBe(422);
    expect((await post({ phone: usPhone(502), campaign_id: outside.id }, auth(token))).statusCode).toBe(403);
    const count = await t.deps.db.selectFrom('contacts').select((eb) => eb.fn.countAll<number>().as('n')).where('campaign_id', 'in', [campaign.id, outside.id]).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('answers an array with a result or an error per item, one bad item failing alone', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { campaigns: [outside] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { token } = await integration(alice, { campaign_ids: [campaign.id] });
    const res = await post(
      [
        { phone: usPhone(600), name: 'One' },
        { name: 'No phone' },
        { phone: usPhone(601), campaign_id: outside.id },
        'not an object',
        { phone: usPhone(602), timezone: 'Nowhere/Land' },
        { msisdn: usPhone(603), start_call: true },
      ],
      auth(token),
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toHaveLength(6);
    expect(body[0]).toMatchObject({ phone_number: usPhone(600), contact_data: { name: 'One' }, call_enqueued: false });
    expect(body[1].error.status).toBe(422);
    expect(body[1].error.detail[0].loc).toEqual(['body', 1, 'phone']);
    expect(body[2]).toEqual({ error: { status: 403, detail: 'Not enough permissions' } });
    expect(body[3].error.status).toBe(422);
    expect(body[4].error.detail[0].loc).toEqual(['body', 4, 'timezone']);
    expect(body[5]).toMatchObject({ phone_number: usPhone(603), call_enqueued: true });
    const phones = await t.deps.db.selectFrom('contacts').select('phone_number').where('campaign_id', '=', campaign.id).orderBy('id').execute();
    expect(phones.map((p) => p.phone_number)).toEqual([usPhone(600), usPhone(603)]);
  });

  it('rate-limits each token with 429 and Retry-After, counting array items, without touching other tokens', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const limited = await integration(alice, { campaign_ids: [campaign.id], rate_limit_per_minute: 3 });
    const other = await integration(alice, { campaign_ids: [campaign.id], rate_limit_per_minute: 3 });
    expect((await post([{ phone: usPhone(700) }, { phone: usPhone(701) }], auth(limited.token))).statusCode).toBe(200);
    expect((await post({ phone: usPhone(702) }, auth(limited.token))).statusCode).toBe(200);
    const over = await post({ phone: usPhone(703) }, auth(limited.token));
    expect(over.statusCode).toBe(429);
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(typeof over.json().detail).toBe('string');
    expect((await post({ phone: usPhone(704) }, auth(other.token))).statusCode).toBe(200);
  });

  it('bounds the request: more than 100 items or a body over 256 KiB is 413', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { token } = await integration(alice, { campaign_ids: [campaign.id] });
    expect((await post(Array.from({ length: 101 }, (_, i) => ({ phone: usPhone(800 + i) })), auth(token))).statusCode).toBe(413);
    expect((await post({ phone: usPhone(900), contact_data: { blob: 'x'.repeat(300 * 1024) } }, auth(token))).statusCode).toBe(413);
  });

  it('documents the endpoint, marking the query token as legacy', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const op = doc.paths['/api/v1/contact-creation-integration/create-contact'];
    // No account credentials: the integration token is its own (security: [] tells generators so).
    expect(op.get.security).toEqual([]);
    expect(JSON.stringify(op.get.parameters)).toMatch(/LEGACY/);
    expect(op.post.requestBody).toBeDefined();
    expect(doc.paths['/api/v1/contacts/bulk/{task_id}']).toBeDefined();
    expect(doc.paths['/api/v1/contacts/import/csv'].post.requestBody.content['multipart/form-data']).toBeDefined();
  });
});

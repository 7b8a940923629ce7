import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { openVoiceConnection } from './voice-connections.repository.ts';
import { appWithAccounts, createAccount, createSubUser, type Account } from '../../../test/helpers/factories.ts';

let t: TestApp;
let alice: Account;
let bob: Account;

beforeAll(async () => void ({ t, alice, bob } = await appWithAccounts({ PUBLIC_BASE_URL: 'https://calls.example.com/' })));
afterAll(() => t?.close());

const url = '/api/v1/voice-connections';
const VAPI_KEY = 'vapi-private-key-0123456789-ABCD';
const VAPI_SECRET = 'vapi-server-secret-987654-WXYZ';
const vapi = (extra: Record<string, unknown> = {}) => ({ name: 'Client A', provider: 'vapi', api_key: VAPI_KEY, webhook_secret: VAPI_SECRET, phone_number_id: 'pn_1', ...extra });
const retell = (extra: Record<string, unknown> = {}) => ({ name: 'Client B', provider: 'retell', api_key: 'retell-key-abcdefghijklmnop-1234', agent_id: 'agent_1', from_number: '(415) 555-0100', ...extra });
const create = (payload: Record<string, unknown>, headers = alice.headers) => t.request({ method: 'POST', url, headers, payload });
const locOf = (res: { json(): any }) => res.json().detail[0].loc.join('.');

const TWILIO_SID = `AC${'0123456789abcdef'.repeat(2)}`;

describe('voice connections', () => {
  it('stores a Vapi connection, answers its secrets masked and its events URL', async () => {
    const res = await create(vapi({ max_concurrent_calls: 3, calls_per_second: 0.5 }));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(Number), owner_id: alice.id, name: 'Client A', provider: 'vapi', api_key: '****ABCD', webhook_secret: '****WXYZ',
      phone_number_id: 'pn_1', agent_id: null, account_sid: null, from_number: null, max_concurrent_calls: 3, calls_per_second: 0.5,
      events_url: `https://calls.example.com/api/v1/voice/vapi/events?connection=${body.id}`, created_at: expect.any(String), updated_at: expect.any(String),
    });
    for (const answer of [await t.request({ method: 'GET', url: `${url}/${body.id}`, headers: alice.headers }), await t.request({ method: 'GET', url, headers: alice.headers })]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).not.toContain(VAPI_KEY);
      expect(answer.body).not.toContain(VAPI_SECRET);
    }
  });

  it('keeps the secrets sealed at rest; openVoiceConnection gives them back in the clear', async () => {
    const { id } = (await create(vapi())).json();
    const row = await t.deps.db.selectFrom('voice_connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.api_key).toMatch(/^sealed:v1:/);
    expect(row.webhook_secret).toMatch(/^sealed:v1:/);
    expect(row.api_key).not.toContain(VAPI_KEY.slice(0, 10));
    expect(await openVoiceConnection(t.deps.db, t.deps.secrets, id)).toEqual({
      id, owner_id: alice.id, provider: 'vapi', apiKey: VAPI_KEY, accountSid: null, webhookSecret: VAPI_SECRET, phoneNumberId: 'pn_1', agentId: null, fromNumber: null, maxConcurrent: null, callsPerSecond: null,
    });
    expect(await openVoiceConnection(t.deps.db, t.deps.secrets, 99999999)).toBeNull();
  });

  it('stores a Retell connection with its number in E.164', async () => {
    const res = await create(retell());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ provider: 'retell', agent_id: 'agent_1', from_number: '+14155550100', webhook_secret: null, api_key: '****1234' });
  });

  it('stores a Twilio connection: its account SID, its number in E.164, and the Voice URL of its numbers', async () => {
    const res = await create({ name: 'Client T', provider: 'twilio', api_key: 'twilio-auth-token-5678', account_sid: TWILIO_SID, from_number: '+1 415 555 0111' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ provider: 'twilio', account_sid: TWILIO_SID, from_number: '+14155550111', api_key: '****5678', webhook_secret: null });
    expect(body.events_url).toBe(`https://calls.example.com/api/v1/voice/twilio/twiml?connection=${body.id}`);
  });

  it('answers 422 naming the field for settings that do not fit the vendor', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [vapi({ webhook_secret: null }), 'body.webhook_secret'],
      [vapi({ agent_id: 'agent_1' }), 'body.agent_id'],
      [retell({ webhook_secret: 'some-secret-value' }), 'body.webhook_secret'],
      [retell({ phone_number_id: 'pn_1' }), 'body.phone_number_id'],
      [retell({ from_number: 'not a number' }), 'body.from_number'],
      [vapi({ provider: 'plivo' }), 'body.provider'],
      [vapi({ provider: 'twilio', webhook_secret: null, phone_number_id: null }), 'body.account_sid'],
      [vapi({ provider: 'twilio', webhook_secret: null, phone_number_id: null, account_sid: 'AC123' }), 'body.account_sid'],
      [vapi({ account_sid: TWILIO_SID }), 'body.account_sid'],
      [vapi({ api_key: 'short' }), 'body.api_key'],
      [vapi({ max_concurrent_calls: -1 }), 'body.max_concurrent_calls'],
      [vapi({ calls_per_second: 0 }), 'body.calls_per_second'],
      [vapi({ name: '' }), 'body.name'],
    ];
    for (const [payload, loc] of cases) {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(locOf(res), JSON.stringify(payload)).toBe(loc);
    }
  });

  it('changes only the given fields, keeps omitted secrets, replaces given ones sealed', async () => {
    const { id } = (await create(vapi())).json();
    const put = (payload: Record<string, unknown>) => t.request({ method: 'PUT', url: `${url}/${id}`, headers: alice.headers, payload });
    const renamed = await put({ name: 'Renamed', max_concurrent_calls: null, provider: 'retell' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Renamed', provider: 'vapi', api_key: '****ABCD', webhook_secret: '****WXYZ', phone_number_id: 'pn_1' });
    const rotated = await put({ api_key: 'a-brand-new-vapi-key-000-NEWK' });
    expect(rotated.json().api_key).toBe('****NEWK');
    const row = await t.deps.db.selectFrom('voice_connections').select(['api_key', 'webhook_secret']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(t.deps.secrets.open(row.api_key)).toBe('a-brand-new-vapi-key-000-NEWK');
    expect(t.deps.secrets.open(row.webhook_secret)).toBe(VAPI_SECRET);
    expect((await put({ webhook_secret: null })).statusCode).toBe(422);
  });

  it('is the owner\'s alone: another account gets 403, a sub-user 403, an unknown id 404', async () => {
    const { id } = (await create(vapi())).json();
    const sub = await createSubUser(t, alice.id);
    for (const headers of [bob.headers, sub.headers]) {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const res = await t.request({ method, url: `${url}/${id}`, headers, ...(method === 'PUT' ? { payload: { name: 'x' } } : {}) });
        expect(res.statusCode, method).toBe(403);
        expect(res.json()).toEqual({ detail: 'Not enough permissions' });
      }
    }
    expect((await create(vapi(), sub.headers)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url, headers: sub.headers })).statusCode).toBe(403);
    const bobs = (await t.request({ method: 'GET', url, headers: bob.headers })).json();
    expect(bobs.data.map((c: { id: number }) => c.id)).not.toContain(id);
    expect((await t.request({ method: 'GET', url: `${url}/99999999`, headers: alice.headers })).statusCode).toBe(404);
  });

  it('lists newest first with a total count', async () => {
    const account = await createAccount(t);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await create(vapi({ name: `n${i}` }), account.headers)).json().id);
    const page = (await t.request({ method: 'GET', url: `${url}?skip=1&limit=1`, headers: account.headers })).json();
    expect(page).toMatchObject({ count: 3, data: [{ id: ids[1] }] });
  });

  it('refuses to delete a connection an assistant uses (409), deletes it once free', async () => {
    const { id } = (await create(vapi())).json();
    const assistant = (await t.request({ method: 'POST', url: '/api/v1/assistants', headers: alice.headers, payload: { name: 'A', provider: 'vapi', voice_connection_id: id } })).json();
    const refused = await t.request({ method: 'DELETE', url: `${url}/${id}`, headers: alice.headers });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain(String(assistant.id));
    expect((await t.request({ method: 'DELETE', url: `/api/v1/assistants/${assistant.id}`, headers: alice.headers })).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `${url}/${id}`, headers: alice.headers })).json()).toEqual({ message: 'Voice connection deleted' });
    expect((await t.request({ method: 'GET', url: `${url}/${id}`, headers: alice.headers })).statusCode).toBe(404);
  });
});

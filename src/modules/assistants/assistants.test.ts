import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { appWithAccounts, createCampaignViaApi, createSubUser, type Account, type SubUser } from '../../../test/helpers/factories.ts';

let t: TestApp;
let alice: Account;
let bob: Account;

beforeAll(async () => void ({ t, alice, bob } = await appWithAccounts()));
afterAll(() => t?.close());

const url = '/api/v1/assistants';
const create = (payload: Record<string, unknown>, headers = alice.headers) => t.request({ method: 'POST', url, headers, payload });
const put = (id: number, payload: Record<string, unknown>, headers = alice.headers) => t.request({ method: 'PUT', url: `${url}/${id}`, headers, payload });
const locOf = (res: { json(): any }) => res.json().detail[0].loc.join('.');

async function connection(owner: Account, provider: 'vapi' | 'retell', extra: Record<string, unknown> = {}): Promise<number> {
  const secrets = provider === 'vapi' ? { webhook_secret: 'vapi-secret-123456' } : {};
  const res = await t.request({ method: 'POST', url: '/api/v1/voice-connections', headers: owner.headers, payload: { name: provider, provider, api_key: 'a-vendor-api-key-123456', ...secrets, ...extra } });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().id;
}

const FULL = {
  name: 'Dental receptionist',
  provider: 'sim',
  provider_assistant_id: 'asst_123',
  first_message: 'Hello {{contact.name}}, this is {{campaign.title}}.',
  system_prompt: 'You book appointments for {{ campaign.clinic }}.',
  voice: 'jennifer',
  language: 'en-US',
  model: 'gpt-4o',
  voicemail_action: 'leave_message',
  voicemail_message: 'Please call us back, {{contact.name}}.',
  max_duration_seconds: 600,
  transfer_number: '(415) 555-0199',
  action_status_rules: [
    { action_status: 'scheduled', path: 'structuredData.appointment' },
    { action_status: 'interested', path: 'custom_analysis_data.interest', equals: 'high' },
  ],
};

describe('creating and reading assistants', () => {
  it('applies the defaults when only name and provider are given', async () => {
    const res = await create({ name: 'Plain', provider: 'sim' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: expect.any(Number), owner_id: alice.id, name: 'Plain', provider: 'sim', provider_assistant_id: null, voice_connection_id: null,
      first_message: null, system_prompt: null, voice: null, language: null, model: null, voicemail_action: 'hang_up', voicemail_message: null,
      max_duration_seconds: null, transfer_number: null, action_status_rules: [], created_at: expect.any(String), updated_at: expect.any(String),
    });
  });

  it('round-trips every field, the transfer number in E.164', async () => {
    const created = await create(FULL);
    expect(created.statusCode).toBe(200);
    const expected = { ...FULL, transfer_number: '+14155550199', owner_id: alice.id };
    expect(created.json()).toMatchObject(expected);
    const read = await t.request({ method: 'GET', url: `${url}/${created.json().id}`, headers: alice.headers });
    expect(read.json()).toMatchObject(expected);
    const list = (await t.request({ method: 'GET', url, headers: alice.headers })).json();
    expect(list.data[0].id).toBe(created.json().id);
    expect(list.count).toBe(list.data.length);
  });

  it('answers 422 naming the field for each invalid setting', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ first_message: 'Hi {{contact.name}' }, 'body.first_message'],
      [{ system_prompt: 'Use {{secret}}' }, 'body.system_prompt'],
      [{ voicemail_message: 'Bye {{ call.id }}' }, 'body.voicemail_message'],
      [{ voicemail_action: 'leave_message', voicemail_message: null }, 'body.voicemail_message'],
      [{ voicemail_action: 'record' }, 'body.voicemail_action'],
      [{ max_duration_seconds: 5 }, 'body.max_duration_seconds'],
      [{ max_duration_seconds: 7201 }, 'body.max_duration_seconds'],
      [{ transfer_number: 'reception' }, 'body.transfer_number'],
      [{ language: 'english please' }, 'body.language'],
      [{ name: '' }, 'body.name'],
      [{ name: 'x'.repeat(201) }, 'body.name'],
      [{ system_prompt: 'x'.repeat(20001) }, 'body.system_prompt'],
      [{ provider: 'twilio' }, 'body.provider'],
      [{ action_status_rules: [{ action_status: 'won', path: 'a' }] }, 'body.action_status_rules.0.action_status'],
      [{ action_status_rules: [{ action_status: 'interested', path: 'a..b' }] }, 'body.action_status_rules.0.path'],
      [{ action_status_rules: [{ action_status: 'interested', path: 'a', equals: { x: 1 } }] }, 'body.action_status_rules.0.equals'],
      [{ action_status_rules: Array.from({ length: 21 }, () => ({ action_status: 'interested', path: 'a' })) }, 'body.action_status_rules'],
    ];
    for (const [change, loc] of cases) {
      const res = await create({ ...FULL, ...change });
      expect(res.statusCode, JSON.stringify(change).slice(0, 100)).toBe(422);
      expect(locOf(res), JSON.stringify(change).slice(0, 100)).toBe(loc);
    }
  });
});

describe('providers and voice connections', () => {
  it('refuses a vendor the service has no settings for, naming them, unless a connection is given', async () => {
    const vapi = await create({ name: 'V', provider: 'vapi' });
    expect(vapi.statusCode).toBe(422);
    expect(locOf(vapi)).toBe('body.provider');
    expect(vapi.json().detail[0].msg).toMatch(/VAPI_API_KEY and VAPI_WEBHOOK_SECRET/);
    expect((await create({ name: 'R', provider: 'retell', provider_assistant_id: 'agent_9' })).json().detail[0].msg).toMatch(/RETELL_API_KEY/);
    const withConnection = await create({ name: 'V', provider: 'vapi', voice_connection_id: await connection(alice, 'vapi') });
    expect(withConnection.statusCode).toBe(200);
  });

  it('needs a Retell agent: the assistant\'s own or its connection\'s', async () => {
    const bare = await connection(alice, 'retell');
    const noAgent = await create({ name: 'R', provider: 'retell', voice_connection_id: bare });
    expect(noAgent.statusCode).toBe(422);
    expect(locOf(noAgent)).toBe('body.provider_assistant_id');
    expect((await create({ name: 'R', provider: 'retell', voice_connection_id: bare, provider_assistant_id: 'agent_1' })).statusCode).toBe(200);
    expect((await create({ name: 'R', provider: 'retell', voice_connection_id: await connection(alice, 'retell', { agent_id: 'agent_2' }) })).statusCode).toBe(200);
  });

  it('takes only a connection of the same account and provider (422 otherwise, unknown alike)', async () => {
    const retellConnection = await connection(alice, 'retell', { agent_id: 'agent_3' });
    const bobs = await connection(bob, 'vapi');
    for (const [payload, why] of [
      [{ provider: 'vapi', voice_connection_id: retellConnection }, /retell connection/],
      [{ provider: 'sim', voice_connection_id: retellConnection }, /retell connection/],
      [{ provider: 'vapi', voice_connection_id: bobs }, /no voice connection/],
      [{ provider: 'vapi', voice_connection_id: 99999999 }, /no voice connection/],
    ] as const) {
      const res = await create({ name: 'X', ...payload });
      expect(res.statusCode).toBe(422);
      expect(locOf(res)).toBe('body.voice_connection_id');
      expect(res.json().detail[0].msg).toMatch(why);
    }
  });
});

describe('changing and deleting', () => {
  it('changes only the given fields and checks the result as a whole', async () => {
    const { id } = (await create(FULL)).json();
    const res = await put(id, { name: 'Renamed', max_duration_seconds: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Renamed', max_duration_seconds: null, voicemail_action: 'leave_message', first_message: FULL.first_message });
    const cleared = await put(id, { voicemail_message: null });
    expect(cleared.statusCode).toBe(422);
    expect(locOf(cleared)).toBe('body.voicemail_message');
    expect((await put(id, { provider: 'vapi' })).statusCode).toBe(422);
  });

  it('refuses to delete an assistant a campaign uses, naming the campaigns (409)', async () => {
    const { id } = (await create(FULL)).json();
    const campaigns = [await createCampaignViaApi(t, alice.headers, { assistant_id: id }), await createCampaignViaApi(t, alice.headers, { assistant_id: id })];
    const refused = await t.request({ method: 'DELETE', url: `${url}/${id}`, headers: alice.headers });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain(`2 campaign(s) (ids ${campaigns[0].id}, ${campaigns[1].id})`);
    for (const c of campaigns) await t.request({ method: 'PUT', url: `/api/v1/campaigns/${c.id}`, headers: alice.headers, payload: { assistant_id: null } });
    expect((await t.request({ method: 'DELETE', url: `${url}/${id}`, headers: alice.headers })).json()).toEqual({ message: 'Assistant deleted' });
    expect((await t.request({ method: 'GET', url: `${url}/${id}`, headers: alice.headers })).statusCode).toBe(404);
  });
});

describe('who sees an assistant', () => {
  let sub: SubUser;
  let shown: number;
  let hidden: number;

  beforeAll(async () => {
    shown = (await create({ name: 'Shown', provider: 'sim' })).json().id;
    hidden = (await create({ name: 'Hidden', provider: 'sim' })).json().id;
    const granted = await createCampaignViaApi(t, alice.headers, { assistant_id: shown });
    await createCampaignViaApi(t, alice.headers, { assistant_id: hidden });
    sub = await createSubUser(t, alice.id, [granted.id]);
  });

  it('keeps other accounts out: 403 on read, change and delete, never listed; an unknown id is 404', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.request({ method, url: `${url}/${shown}`, headers: bob.headers, ...(method === 'PUT' ? { payload: { name: 'mine' } } : {}) });
      expect(res.statusCode, method).toBe(403);
      expect(res.json()).toEqual({ detail: 'Not enough permissions' });
    }
    const list = (await t.request({ method: 'GET', url, headers: bob.headers })).json();
    expect(list.data.every((a: { owner_id: number }) => a.owner_id === bob.id)).toBe(true);
    expect((await t.request({ method: 'GET', url: `${url}/99999999`, headers: alice.headers })).statusCode).toBe(404);
  });

  it('lets a sub-user read the assistants of its granted campaigns only, and change none', async () => {
    const list = (await t.request({ method: 'GET', url, headers: sub.headers })).json();
    expect(list).toMatchObject({ count: 1, data: [{ id: shown }] });
    expect((await t.request({ method: 'GET', url: `${url}/${shown}`, headers: sub.headers })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `${url}/${hidden}`, headers: sub.headers })).statusCode).toBe(403);
    expect((await create({ name: 'Sub\'s', provider: 'sim' }, sub.headers)).statusCode).toBe(403);
    expect((await put(shown, { name: 'Changed' }, sub.headers)).statusCode).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `${url}/${shown}`, headers: sub.headers })).statusCode).toBe(403);
  });
});

describe('with the vendors configured on the service', () => {
  it('takes vapi and retell without a connection, the Retell agent from RETELL_AGENT_ID', async () => {
    const configured = await appWithAccounts({
      VAPI_API_KEY: 'service-vapi-key-0123', VAPI_WEBHOOK_SECRET: 'service-vapi-secret', RETELL_API_KEY: 'service-retell-key-0123', RETELL_AGENT_ID: 'agent_service',
    });
    try {
      for (const provider of ['vapi', 'retell']) {
        const res = await configured.t.request({ method: 'POST', url, headers: configured.alice.headers, payload: { name: provider, provider } });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ provider, voice_connection_id: null, provider_assistant_id: null });
      }
    } finally {
      await configured.t.close();
    }
  });
});

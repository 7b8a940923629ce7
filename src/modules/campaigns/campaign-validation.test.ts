import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, createCampaignViaApi, type Account } from '../../../test/helpers/factories.ts';

let t: TestApp;
let alice: Account;
let campaignId: number;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createAccount(t);
  campaignId = (await createCampaignViaApi(t, alice.headers, { call_allowed_from_time: '09:00', limit_start: '2026-03-01T00:00:00Z' })).id;
});
afterAll(() => t?.close());

const base = { title: 'Valid', campaign_type: 'Outbound' };
type Loc = (string | number)[];

/** Each case: a body fragment that must be refused, and the location the 422 must name. */
const INVALID: Array<[string, Record<string, unknown>, Loc]> = [
  ['an empty title', { title: '' }, ['body', 'title']],
  ['a title over 255 characters', { title: 'x'.repeat(256) }, ['body', 'title']],
  ['an unknown campaign_type', { campaign_type: 'Sideways' }, ['body', 'campaign_type']],
  ['call_interval that is not a list of integers', { call_interval: ['soon'] }, ['body', 'call_interval', 0]],
  ['a call_interval of 0 minutes', { call_interval: [10, 0] }, ['body', 'call_interval', 1]],
  ['a call_interval over a week', { call_interval: [10081] }, ['body', 'call_interval', 0]],
  ['a fractional call_interval', { call_interval: [1.5] }, ['body', 'call_interval', 0]],
  ['more than 50 call_interval items', { call_interval: Array.from({ length: 51 }, () => 5) }, ['body', 'call_interval']],
  ['max_call_attempts of 0', { max_call_attempts: 0 }, ['body', 'max_call_attempts']],
  ['max_call_attempts over 100', { max_call_attempts: 101 }, ['body', 'max_call_attempts']],
  ['a fractional max_call_attempts', { max_call_attempts: 2.5 }, ['body', 'max_call_attempts']],
  ['a negative concurrent_call_limit', { concurrent_call_limit: -1 }, ['body', 'concurrent_call_limit']],
  ['a concurrent_call_limit over 10000', { concurrent_call_limit: 10001 }, ['body', 'concurrent_call_limit']],
  ['a negative limit_value', { limit_value: -0.5 }, ['body', 'limit_value']],
  ['an unknown limit_unit', { limit_unit: 'calls' }, ['body', 'limit_unit']],
  ['a limit_start that is not a date-time', { limit_start: 'yesterday' }, ['body', 'limit_start']],
  ['limit_start equal to limit_end', { limit_start: '2026-01-01T00:00:00Z', limit_end: '2026-01-01T00:00:00Z' }, ['body', 'limit_end']],
  ['limit_start after limit_end', { limit_start: '2026-02-01T00:00:00Z', limit_end: '2026-01-01T00:00:00Z' }, ['body', 'limit_end']],
  ['a call_allowed_from_time that is not a time', { call_allowed_from_time: '25:00' }, ['body', 'call_allowed_from_time']],
  ['a call_allowed_to_time in words', { call_allowed_to_time: 'noon' }, ['body', 'call_allowed_to_time']],
  ['equal call_allowed_from_time and call_allowed_to_time', { call_allowed_from_time: '09:00', call_allowed_to_time: '09:00:00' }, ['body', 'call_allowed_to_time']],
  ['campaign_data that is not an object', { campaign_data: 'prompt' }, ['body', 'campaign_data']],
  ['a numeric prompt', { campaign_data: { prompt: 42 } }, ['body', 'campaign_data', 'prompt']],
  ['a list as prompt', { campaign_data: { prompt: ['a'] } }, ['body', 'campaign_data', 'prompt']],
  ['a null prompt', { campaign_data: { prompt: null } }, ['body', 'campaign_data', 'prompt']],
  ['a campaign_sip that is not a SIP URI', { campaign_sip: 'https://trunk.example.com' }, ['body', 'campaign_sip']],
  ['a campaign_sip with a password in it', { campaign_sip: 'sip:user:secret@trunk.example.com' }, ['body', 'campaign_sip']],
  ['a campaign_sip on a private host', { campaign_sip: 'sip:192.168.1.20:5060' }, ['body', 'campaign_sip']],
  ['a campaign_sip on a loopback host', { campaign_sip: 'sip:agent@127.0.0.1' }, ['body', 'campaign_sip']],
  ['a campaign_sip on a link-local host', { campaign_sip: 'sip:[fe80::1]' }, ['body', 'campaign_sip']],
  ['a work_schedule that is not an object', { work_schedule: 'weekdays' }, ['body', 'work_schedule']],
  ['a work_schedule with an unknown time zone', { work_schedule: { timezone: 'Mars/Olympus' } }, ['body', 'work_schedule', 'timezone']],
  ['a work_schedule interval ending before it starts', { work_schedule: { days: { tue: [{ from: '18:00', to: '09:00' }] } } }, ['body', 'work_schedule', 'days', 'tue', 0]],
  ['a work_schedule time that is not HH:MM', { work_schedule: { days: { mon: [{ from: '9am', to: '12:00' }] } } }, ['body', 'work_schedule', 'days', 'mon', 0, 'from']],
  ['a work_schedule with an unknown key (not silently dropped)', { work_schedule: { monday: [{ from: '09:00', to: '17:00' }] } }, ['body', 'work_schedule', 'monday']],
  ['a work_schedule with an unknown day', { work_schedule: { days: { monday: [] } } }, ['body', 'work_schedule', 'days', 'monday']],
  ['a work_schedule interval with an unknown key', { work_schedule: { days: { mon: [{ from: '09:00', to: '17:00', zone: 'UTC' }] } } }, ['body', 'work_schedule', 'days', 'mon', 0, 'zone']],
  ['a campaign_phone that is not a phone number', { campaign_phone: 'front desk' }, ['body', 'campaign_phone']],
  ['a null auto_calls (not coerced to false)', { auto_calls: null }, ['body', 'auto_calls']],
  ['a string is_paused (not coerced)', { is_paused: 'true' }, ['body', 'is_paused']],
  ['a string max_call_attempts (not coerced)', { max_call_attempts: '3' }, ['body', 'max_call_attempts']],
  ['a work_schedule skip date that is not a date', { work_schedule: { skip_dates: ['christmas'] } }, ['body', 'work_schedule', 'skip_dates', 0]],
];

const expectRefused = (res: { statusCode: number; json(): { detail: Array<{ loc: Loc; msg: string; type: string }> } }, loc: Loc) => {
  expect(res.statusCode).toBe(422);
  const locs = res.json().detail.map((d) => d.loc);
  expect(locs).toContainEqual(loc);
  for (const item of res.json().detail) expect(typeof item.msg).toBe('string');
};

describe('campaign validation', () => {
  it.each(INVALID)('refuses %s on create with 422 naming the field', async (_name, fragment, loc) => {
    const res = await t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: alice.headers, payload: { ...base, ...fragment } });
    expectRefused(res, loc);
  });

  it.each(INVALID.filter(([name]) => !name.includes('title') && !name.includes('campaign_type')))('refuses %s on update with 422 naming the field', async (_name, fragment, loc) => {
    const res = await t.request({ method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, headers: alice.headers, payload: fragment });
    expectRefused(res, loc);
  });

  it('stores campaign_phone in E.164, as inbound calls are routed by it', async () => {
    const created = await createCampaignViaApi(t, alice.headers, { campaign_phone: '+1 (212) 555-0783' });
    expect(created.campaign_phone).toBe('+12125550783');
    const res = await t.request({ method: 'PUT', url: `/api/v1/campaigns/${created.id}`, headers: alice.headers, payload: { campaign_phone: '+49 30 1234567' } });
    expect(res.json().campaign_phone).toBe('+49301234567');
  });

  it('accepts a trunk\'s SIP URI and says why a refused one is refused; a refused update keeps the stored route', async () => {
    const created = await createCampaignViaApi(t, alice.headers, { campaign_sip: 'sips:+14155550100@trunk.example.com:5061;transport=tls' });
    expect(created.campaign_sip).toBe('sips:+14155550100@trunk.example.com:5061;transport=tls');
    const res = await t.request({ method: 'PUT', url: `/api/v1/campaigns/${created.id}`, headers: alice.headers, payload: { campaign_sip: 'sip:ops:hunter2@trunk.example.com', title: 'Moved' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0].msg).toMatch(/voice connection/);
    expect(JSON.stringify(res.json())).not.toContain('hunter2');
    const after = (await t.request({ method: 'GET', url: `/api/v1/campaigns/${created.id}`, headers: alice.headers })).json();
    expect(after).toMatchObject({ campaign_sip: 'sips:+14155550100@trunk.example.com:5061;transport=tls', title: created.title });
  });

  it('changes nothing when an update is refused for a null boolean', async () => {
    const id = (await createCampaignViaApi(t, alice.headers, { auto_calls: true, is_auto_ai_message: true })).id;
    const res = await t.request({ method: 'PUT', url: `/api/v1/campaigns/${id}`, headers: alice.headers, payload: { auto_calls: null, is_auto_ai_message: null, title: 'Renamed' } });
    expectRefused(res, ['body', 'auto_calls']);
    const after = (await t.request({ method: 'GET', url: `/api/v1/campaigns/${id}`, headers: alice.headers })).json();
    expect(after).toMatchObject({ auto_calls: true, is_auto_ai_message: true });
    expect(after.title).not.toBe('Renamed');
  });

  it('refuses a create without title or campaign_type, and an empty title on update', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: alice.headers, payload: {} });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ['body', 'title'], type: 'missing' }), expect.objectContaining({ loc: ['body', 'campaign_type'], type: 'missing' })]));
    expectRefused(await t.request({ method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, headers: alice.headers, payload: { title: '' } }), ['body', 'title']);
  });

  it('checks a partial update against the stored values of the other field of a pair', async () => {
    expectRefused(await t.request({ method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, headers: alice.headers, payload: { call_allowed_to_time: '09:00' } }), ['body', 'call_allowed_to_time']);
    expectRefused(await t.request({ method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, headers: alice.headers, payload: { limit_end: '2026-02-01T00:00:00Z' } }), ['body', 'limit_end']);
    const ok = await t.request({ method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, headers: alice.headers, payload: { limit_end: '2026-04-01T00:00:00Z', call_allowed_to_time: '06:00' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ call_allowed_from_time: '09:00:00', call_allowed_to_time: '06:00:00', limit_end: '2026-04-01T00:00:00.000Z' });
  });

  it('accepts the boundary values and a window that crosses midnight', async () => {
    const body = {
      ...base,
      call_interval: [1, 10080, ...Array.from({ length: 48 }, () => 30)],
      max_call_attempts: 100,
      concurrent_call_limit: 10000,
      limit_value: 0,
      call_allowed_from_time: '22:00',
      call_allowed_to_time: '06:00',
      campaign_data: { prompt: { system: 'Be kind', steps: ['greet'] } },
      work_schedule: { timezone: 'America/New_York', days: { fri: [{ from: '00:00', to: '24:00' }] } },
    };
    const created = await createCampaignViaApi(t, alice.headers, body);
    expect(created).toMatchObject({ ...body, call_allowed_from_time: '22:00:00', call_allowed_to_time: '06:00:00' });
    expect((await createCampaignViaApi(t, alice.headers, { max_call_attempts: 1, concurrent_call_limit: 0, call_interval: [] })).call_interval).toEqual([]);
  });

  it('answers 422 for a malformed JSON body and a non-integer path id', async () => {
    const bad = await t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: { ...alice.headers, 'content-type': 'application/json' }, payload: '{"title": ' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['body']);
    const path = await t.request({ method: 'GET', url: '/api/v1/campaigns/abc', headers: alice.headers });
    expect(path.statusCode).toBe(422);
    expect(path.json().detail[0].loc).toEqual(['path', 'id']);
  });
});

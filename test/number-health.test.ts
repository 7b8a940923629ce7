import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeNumberHealth } from '../src/modules/phone-numbers/number-health.worker.ts';
import { dialerHarness, type DialerHarness } from './helpers/dialer-harness.ts';
import { callAroundTheClock, createAccount, createSubUser } from './helpers/factories.ts';
import { seed } from './helpers/seed.ts';

/**
 * Number health end to end on one database: calls in the window rest the number whose answer
 * rate fell far below the account's, the dialer passes it over and the call says why, the rest
 * ends after rest_hours and the number is judged afresh; the owner rests and unrests by hand and
 * tunes the rule; every rest and end is audited once.
 */
let h: DialerHarness;
const BAD = '+12125550181';
const GOOD = '+12125550182';
/** A third number, in another area code and with no calls: the contacts' area code picks GOOD over it. */
const FAR = '+14155550183';
const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = h.account.headers) =>
  h.t.request({ method, url, headers, ...(payload && { payload }) });
let seq = 0;
const nyNumber = () => `+1212555${String(4000 + seq++).padStart(4, '0')}`;

/** `n` past calls from `from`, `answered` of them finished after `talk` seconds, the rest unanswered; started an hour ago. */
async function history(campaignId: number, from: string, n: number, answered: number, talk = 60) {
  const campaign = { id: campaignId, owner_id: h.account.id };
  const start = new Date(h.clock.now().getTime() - 3_600_000);
  await seed(h.t.deps.db, {
    contacts: Array.from({ length: n }, () => ({ campaign, phone_number: nyNumber(), status: 'finished' })),
    calls: Array.from({ length: n }, (_, i) => ({
      contact: i, call_type: 'outbound', from_number: from, status: i < answered ? 'finished' : 'unavailable',
      call_duration: i < answered ? talk : 0, start_time: start, end_time: new Date(start.getTime() + 90_000),
    })),
  });
}

const healthOf = async (phone: string) => (await api('GET', '/api/v1/phone-numbers/health')).json().data.find((n: any) => n.phone_number === phone);
const audits = async (kind: string) => (await api('GET', `/api/v1/audit-events?kind=${kind}`)).json().data;

let campaign: number;
beforeAll(async () => {
  h = await dialerHarness();
  campaign = await h.campaign({ phones: [BAD, GOOD, FAR], call_allowed_from_time: '00:00:00', call_allowed_to_time: '23:59:59' });
  await history(campaign, BAD, 40, 2);
  await history(campaign, GOOD, 40, 30);
});
afterAll(async () => h?.close());

describe('number health', () => {
  it('rests the number whose answer rate fell far below the account\'s, once, audited', async () => {
    expect((await healthOf(BAD)).state).toBe('not_judged');
    expect(await judgeNumberHealth(h.t.deps.db, h.clock.now())).toEqual({ rested: 1, ended: 0 });
    const bad = await healthOf(BAD);
    expect(bad).toMatchObject({ state: 'rested', calls: 40, answered: 2, answer_rate: 0.05, rest_code: 'answer_rate', rest_reason: 'answer rate 5% vs account 40%' });
    expect(new Date(bad.rested_until).getTime()).toBe(h.clock.now().getTime() + 24 * 3_600_000);
    expect(await healthOf(GOOD)).toMatchObject({ state: 'healthy', calls: 40, answered: 30, rested_until: null });
    expect((await api('GET', '/api/v1/phone-numbers/health')).json().account).toMatchObject({ calls: 80, answered: 32, answer_rate: 0.4 });
    // A second judgement (another process's, say) changes nothing and audits nothing.
    expect(await judgeNumberHealth(h.t.deps.db, h.clock.now())).toEqual({ rested: 0, ended: 0 });
    const events = await audits('phone_number.rested');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: { label: 'number health' }, subject: { type: 'phone_number', id: bad.phone_number_id }, details: { code: 'answer_rate', calls: 40, answered: 2 } });
  });

  it('calls from the healthy number while the other rests, and the call says why', async () => {
    const ids = await h.contacts(campaign, [nyNumber(), nyNumber(), nyNumber()]);
    await h.enqueue(campaign);
    expect(await h.round(campaign)).toBe(3);
    for (const id of ids) {
      const [call] = await h.callsOf(id);
      expect(call.from_number).toBe(GOOD);
      expect(call.call_data.caller_id.reason).toBe('same area code as the contact (1 number(s) rested: answer rate 5% vs account 40%)');
    }
    for (let i = 0; i < 5; i++) await h.advance(10 * 60_000);
  });

  it('rests a number for its own account only: another account with the same number calls from it as before', async () => {
    const bob = await createAccount(h.t);
    await callAroundTheClock(h.t.deps.db, bob.id);
    const his = await h.campaign({ phones: [BAD], owner_id: bob.id, call_allowed_from_time: '00:00:00', call_allowed_to_time: '23:59:59' });
    const [id] = await h.contacts(his, [nyNumber()], { owner_id: bob.id });
    const [hers] = await h.contacts(campaign, [nyNumber()]);
    await h.enqueue(his, bob.headers);
    await h.enqueue(campaign);
    // One round dials both campaigns: the rests it reads are alice's BAD, not bob's.
    expect(await h.round()).toBe(2);
    expect((await h.callsOf(id!))[0]).toMatchObject({ from_number: BAD, call_data: { caller_id: { reason: 'next in rotation' } } });
    expect((await h.callsOf(hers!))[0].from_number).toBe(GOOD);
    for (let i = 0; i < 5; i++) await h.advance(10 * 60_000);
  });

  it('ends the rest after rest_hours and judges the number afresh on its calls after it', async () => {
    h.clock.advance(25 * 3_600_000);
    expect(await judgeNumberHealth(h.t.deps.db, h.clock.now())).toEqual({ rested: 0, ended: 1 });
    expect(await healthOf(BAD)).toMatchObject({ state: 'healthy', calls: 0, rested_until: null, rest_reason: null });
    expect(await audits('phone_number.unrested')).toMatchObject([{ actor: { label: 'number health' }, details: { code: 'rest_over' } }]);
    const [id] = await h.contacts(campaign, [nyNumber()]);
    await h.enqueue(campaign);
    expect(await h.round(campaign)).toBe(1);
    expect((await h.callsOf(id!))[0].call_data.caller_id.reason).toBe('same area code as the contact');
    for (let i = 0; i < 5; i++) await h.advance(10 * 60_000);
  });

  it('lets the owner rest and unrest a number by hand; a sub-user may read but not rest', async () => {
    const bad = await healthOf(BAD);
    const sub = await createSubUser(h.t, h.account.id, [campaign]);
    expect((await api('POST', `/api/v1/phone-numbers/${bad.phone_number_id}/rest`, undefined, sub.headers)).statusCode).toBe(403);
    expect((await api('GET', '/api/v1/phone-numbers/health', undefined, sub.headers)).json().count).toBe(3);
    const rested = await api('POST', `/api/v1/phone-numbers/${bad.phone_number_id}/rest`);
    expect(rested.statusCode, rested.body).toBe(200);
    expect(rested.json()).toMatchObject({ state: 'rested', rest_code: 'manual', rest_reason: 'rested by hand' });
    const [id] = await h.contacts(campaign, [nyNumber()]);
    await h.enqueue(campaign);
    expect(await h.round(campaign)).toBe(1);
    expect((await h.callsOf(id!))[0]).toMatchObject({ from_number: GOOD, call_data: { caller_id: { reason: 'same area code as the contact (1 number(s) rested: rested by hand)' } } });
    for (let i = 0; i < 5; i++) await h.advance(10 * 60_000);
    const unrested = await api('POST', `/api/v1/phone-numbers/${bad.phone_number_id}/unrest`);
    expect(unrested.json()).toMatchObject({ state: 'healthy', rested_until: null });
    expect((await audits('phone_number.unrested'))[0]).toMatchObject({ actor: { type: 'api_key' }, details: { code: 'manual' } });
  });

  it('keeps the rule as the owner sets it; switching it off ends every rest', async () => {
    expect((await api('GET', '/api/v1/phone-numbers/health-settings')).json()).toEqual({
      enabled: true, window_days: 3, min_calls: 30, answer_rate_ratio: 0.5, short_call_seconds: 10, short_call_ratio: 2, rest_hours: 24, updated_at: null,
    });
    const sub = await createSubUser(h.t, h.account.id, [campaign]);
    expect((await api('PUT', '/api/v1/phone-numbers/health-settings', { enabled: false }, sub.headers)).statusCode).toBe(403);
    expect((await api('PUT', '/api/v1/phone-numbers/health-settings', { min_calls: 1 })).json().detail[0].loc).toEqual(['body', 'min_calls']);
    const bad = await healthOf(BAD);
    await api('POST', `/api/v1/phone-numbers/${bad.phone_number_id}/rest`);
    const off = await api('PUT', '/api/v1/phone-numbers/health-settings', { enabled: false, rest_hours: 48 });
    expect(off.json()).toMatchObject({ enabled: false, rest_hours: 48, min_calls: 30 });
    expect((await healthOf(BAD)).state).not.toBe('rested');
    expect((await audits('account.number_health_changed'))[0].details).toEqual({ changed: ['enabled', 'rest_hours'], from: { enabled: true, rest_hours: 24 }, to: { enabled: false, rest_hours: 48 } });
    expect((await audits('phone_number.unrested'))[0].details).toEqual({ code: 'disabled' });
  });
});

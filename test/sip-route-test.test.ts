import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, seeingStarts, usNumber, type DialerHarness } from './helpers/dialer-harness.ts';
import type { StartCallRequest } from '../src/voice/provider.ts';

/**
 * "Test the route" (issue 29): one call through a campaign's campaign_sip and SIP trunk to a number
 * the operator types, on the simulator: the route the vendor gets, the trunk's SIP answer on the call,
 * a test call that takes no attempt and sends no webhook, and the law and limits that refuse it.
 */
let h: DialerHarness;
const started: StartCallRequest[] = [];
beforeAll(async () => {
  h = await dialerHarness('2030-01-07T15:00:00Z', {}, { voice: seeingStarts((req) => started.push(req)) });
});
afterAll(() => h?.close());

const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) => h.t.request({ method, url, headers: h.account.headers, payload });
const testRoute = (campaignId: number, phone: string) => api('POST', `/api/v1/campaigns/${campaignId}/sip-route/test`, { phone_number: phone });

async function trunkCampaign(fields: Record<string, unknown> = {}) {
  const trunk = await api('POST', '/api/v1/sip-trunks/', { name: 'Carrier', username: 'acme', password: 'trunk-password-5678', caller_ids: ['+12125550199'] });
  expect(trunk.statusCode).toBe(200);
  const campaign = await api('POST', '/api/v1/campaigns/', { title: 'Route to test', campaign_type: 'Outbound', campaign_phone: '+12125550100', campaign_sip: 'sip:trunk.example.com;transport=tcp', ...fields });
  expect(campaign.statusCode, campaign.body).toBe(200);
  expect((await api('PUT', `/api/v1/campaigns/${campaign.json().id}/sip-trunk`, { sip_trunk_id: trunk.json().id })).statusCode).toBe(200);
  return campaign.json().id as number;
}

const callRow = (id: number) => h.t.deps.db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('testing a campaign\'s SIP route', () => {
  it('places one test call through the trunk to the typed number and shows the trunk\'s answer, taking no attempt and sending no webhook', async () => {
    const campaignId = await trunkCampaign();
    const hook = await api('POST', '/api/v1/integrations/webhooks/', { url: 'https://crm.example.com/hook', request_schema: { name: 'client name' }, campaign_ids: [campaignId] });
    expect(hook.statusCode, hook.body).toBe(200);
    const phone = usNumber();
    const national = `(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`;
    const answer = await testRoute(campaignId, national);
    expect(answer.statusCode, answer.body).toBe(202);
    expect(answer.json()).toMatchObject({
      status: 'in progress', to_number: phone, from_number: '+12125550199', sip_uri: `sip:${phone}@trunk.example.com;transport=tcp`, sip_response_code: null, ended_reason: null,
    });
    const request = started.find((r) => r.callId === answer.json().call_id)!;
    expect(request.sip).toMatchObject({ uri: `sip:${phone}@trunk.example.com;transport=tcp`, username: 'acme', password: 'trunk-password-5678' });
    expect(answer.body).not.toContain('trunk-password');

    await h.advance(30 * 60_000);
    const read = await api('GET', `/api/v1/calls/${answer.json().call_id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ call_type: null, to_number: phone });
    expect(read.json().call_data.sip_response_code).toBe(200);
    expect(read.json().status).not.toBe('in progress');
    const contact = await h.contact(read.json().contact_id);
    expect(contact).toMatchObject({ status: 'finished', source: 'route_test', calls_attempts: 0 });
    const deliveries = await h.t.deps.db.selectFrom('webhook_deliveries').select('id').where('call_id', '=', answer.json().call_id).execute();
    expect(deliveries).toEqual([]);
    const audit = await api('GET', '/api/v1/audit-events/?limit=100');
    const tested = audit.json().data.find((e: { kind: string }) => e.kind === 'sip_trunk.route_tested');
    expect(tested).toMatchObject({ subject: { type: 'campaign', id: campaignId } });
    expect(tested.details.call_id).toBe(answer.json().call_id);
    expect(JSON.stringify(tested)).not.toContain(phone);
  });

  it('keeps the trunk\'s refusal on the call and leaves the contact of that number as it was', async () => {
    const campaignId = await trunkCampaign();
    const phone = usNumber();
    const [contactId] = await h.contacts(campaignId, [phone], { status: 'new', contact_data: { _sim: { sip_code: 486 } } });
    const answer = await testRoute(campaignId, phone);
    expect(answer.statusCode, answer.body).toBe(202);
    expect(answer.json().call_id).toBeGreaterThan(0);
    await h.advance(30 * 60_000);
    const call = await callRow(answer.json().call_id);
    expect(call).toMatchObject({ status: 'busy_or_rejected', call_type: null, contact_id: contactId });
    expect((call.call_data as { sip_response_code: number }).sip_response_code).toBe(486);
    expect(await h.contact(contactId!)).toMatchObject({ status: 'new', calls_attempts: 0 });
  });

  it('refuses what it may not call, saying why, and writes no call', async () => {
    const campaignId = await trunkCampaign();
    const before = await h.t.deps.db.selectFrom('calls').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const plain = await api('POST', '/api/v1/campaigns/', { title: 'No SIP', campaign_type: 'Outbound' });
    const noSip = await testRoute(plain.json().id, usNumber());
    expect(noSip.statusCode).toBe(409);
    expect(noSip.json().detail).toMatch(/no campaign_sip/);
    const inbound = await api('POST', '/api/v1/campaigns/', { title: 'Desk', campaign_type: 'Inbound', campaign_sip: 'sip:desk@pbx.example.com' });
    expect((await testRoute(inbound.json().id, usNumber())).json().detail).toMatch(/Inbound/);
    const bad = await testRoute(campaignId, 'not a number');
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json())).toContain('phone_number');
    const listed = usNumber();
    expect((await api('POST', '/api/v1/suppressions/', { phone_number: listed, reason: 'asked' })).statusCode).toBe(200);
    const dnc = await testRoute(campaignId, listed);
    expect(dnc.statusCode).toBe(409);
    expect(dnc.json().detail).toMatch(/do-not-call/);
    const resting = usNumber();
    await h.contacts(campaignId, [resting], { status: 'do_not_disturb' });
    const disturbed = await testRoute(campaignId, resting);
    expect(disturbed.statusCode).toBe(409);
    expect(disturbed.json().detail).toMatch(/do_not_disturb/);
    // 10:00 in New York: a window of 13:00-17:00 is closed.
    const late = await trunkCampaign({ call_allowed_from_time: '13:00', call_allowed_to_time: '17:00' });
    const closed = await testRoute(late, '+12125550142');
    expect(closed.statusCode).toBe(409);
    expect(closed.json().detail).toMatch(/outside the campaign's calling window.*opens at 2030-01-07T18:00:00.000Z/);
    const after = await h.t.deps.db.selectFrom('calls').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('counts the test call against the limits: a full campaign is 429, a number already in a call 409', async () => {
    const campaignId = await trunkCampaign({ concurrent_call_limit: 1 });
    const phone = usNumber();
    await h.contacts(campaignId, [phone], { contact_data: { _sim: { duration: 1200 } } });
    const first = await testRoute(campaignId, phone);
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json().status).toBe('in progress');
    const full = await testRoute(campaignId, usNumber());
    expect(full.statusCode).toBe(429);
    expect(full.json().detail).toMatch(/concurrent_call_limit/);
    const other = await trunkCampaign();
    const busy = await testRoute(other, phone);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().detail).toMatch(/in a call now/);
    await h.advance(60 * 60_000);
  });

  it('counts test calls toward the number\'s frequency caps, for the next test and for the dialer', async () => {
    const setCaps = (perDay: number) => h.t.deps.db.updateTable('account_compliance').set({ max_calls_per_day: perDay }).where('owner_id', '=', h.account.id).execute();
    await setCaps(2);
    try {
      const campaignId = await trunkCampaign();
      const phone = usNumber();
      for (let i = 0; i < 2; i++) {
        expect((await testRoute(campaignId, phone)).statusCode).toBe(202);
        await h.advance(30 * 60_000);
      }
      const third = await testRoute(campaignId, phone);
      expect(third.statusCode).toBe(409);
      expect(third.json().detail).toMatch(/frequency caps, test calls included.*next is allowed at/);
      // The dialer holds the number back too: the two test calls reached the person.
      const other = await h.campaign();
      const [contactId] = await h.contacts(other, [phone]);
      expect((await h.enqueue(other)).statusCode).toBe(200);
      expect(await h.round(other)).toBe(0);
      expect(await h.contact(contactId!)).toMatchObject({ status: 'call_scheduled', next_action_code: 'frequency_cap' });
    } finally {
      await setCaps(1000);
    }
  });
});

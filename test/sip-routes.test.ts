import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, seeingStarts, usNumber, type DialerHarness } from './helpers/dialer-harness.ts';
import type { StartCallRequest } from '../src/voice/provider.ts';

/**
 * A campaign's campaign_sip sends its calls through the customer's trunk (issue 29), on the
 * simulator: the route each call is given (the contact's number in the trunk's URI, the trunk's
 * credentials, a caller ID the trunk owns) and the trunk's SIP answers as the interface's statuses.
 */
let h: DialerHarness;
const started: StartCallRequest[] = [];
beforeAll(async () => {
  h = await dialerHarness('2030-01-07T15:00:00Z', {}, { voice: seeingStarts((req) => started.push(req)) });
});
afterAll(() => h?.close());

async function trunkCampaign() {
  const trunk = await h.t.request({ method: 'POST', url: '/api/v1/sip-trunks/', headers: h.account.headers, payload: { name: 'Carrier', username: 'acme', password: 'trunk-password-1234', caller_ids: ['+12125550199'] } });
  expect(trunk.statusCode).toBe(200);
  const campaign = await h.t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: h.account.headers, payload: { title: 'Through the trunk', campaign_type: 'Outbound', campaign_phone: '+12125550100', campaign_sip: 'sip:trunk.example.com:5061;transport=tls' } });
  expect(campaign.statusCode).toBe(200);
  const named = await h.t.request({ method: 'PUT', url: `/api/v1/campaigns/${campaign.json().id}/sip-trunk`, headers: h.account.headers, payload: { sip_trunk_id: trunk.json().id } });
  expect(named.statusCode).toBe(200);
  return { campaignId: campaign.json().id as number, trunkId: trunk.json().id as number };
}

describe('calls through a SIP trunk on the simulator', () => {
  it('gives each call the trunk\'s URI with the contact\'s number, the trunk\'s credentials and a caller ID the trunk owns', async () => {
    const { campaignId, trunkId } = await trunkCampaign();
    const phone = usNumber();
    const [contact] = await h.contacts(campaignId, [phone], { contact_data: { _sim: { persona: 'interested' } } });
    expect((await h.enqueue(campaignId)).statusCode).toBe(200);
    expect(await h.round(campaignId)).toBe(1);
    const request = started.find((r) => r.to === phone)!;
    expect(request.sip).toEqual({
      uri: `sip:${phone}@trunk.example.com:5061;transport=tls`, trunkUri: 'sip:trunk.example.com:5061;transport=tls', trunkId,
      username: 'acme', password: 'trunk-password-1234', gateways: [], callerIds: ['+12125550199'],
    });
    expect(request.from).toBe('+12125550199');
    await h.advance(30 * 60_000);
    const [call] = await h.callsOf(contact!);
    expect(call.status).toBe('finished');
    expect(call.call_data.sip_response_code).toBe(200);
    expect(JSON.stringify(call)).not.toContain('trunk-password');
  });

  it('turns the trunk\'s SIP answers into the interface\'s statuses and keeps the code on the call', async () => {
    const { campaignId } = await trunkCampaign();
    const codes = [404, 484, 486, 600, 480, 408, 403, 603, 402];
    const phones = codes.map(() => usNumber());
    const ids = [];
    for (const [i, code] of codes.entries()) ids.push(...(await h.contacts(campaignId, [phones[i]!], { contact_data: { _sim: { sip_code: code } } })));
    expect((await h.enqueue(campaignId)).statusCode).toBe(200);
    expect(await h.round(campaignId)).toBe(codes.length);
    await h.advance(30 * 60_000);
    const outcomes = [];
    for (const id of ids) {
      const [call] = await h.callsOf(id);
      outcomes.push([call.call_data.sip_response_code, call.status]);
    }
    expect(outcomes).toEqual([
      [404, 'invalid number'], [484, 'invalid number'], [486, 'busy_or_rejected'], [600, 'busy_or_rejected'], [480, 'unavailable'],
      [408, 'unavailable'], [403, 'rejected'], [603, 'rejected'], [402, 'insufficient funds'],
    ]);
  });

  it('leaves calls of a campaign without campaign_sip on the vendor\'s own telephony', async () => {
    const campaignId = await h.campaign();
    const phone = usNumber();
    const [contact] = await h.contacts(campaignId, [phone], { contact_data: { _sim: { sip_code: 486, persona: 'interested' } } });
    expect((await h.enqueue(campaignId)).statusCode).toBe(200);
    await h.round(campaignId);
    expect(started.find((r) => r.to === phone)!.sip).toBeNull();
    await h.advance(30 * 60_000);
    const [call] = await h.callsOf(contact!);
    expect(call.status).toBe('finished');
    expect(call.call_data.sip_response_code).toBeUndefined();
  });
});

describe('inbound calls by SIP address on the simulator', () => {
  it('answers a call to an Inbound campaign\'s campaign_sip (user@host, any port, transport or case); other addresses are 404', async () => {
    const post = (payload: object, headers = h.account.headers) => h.t.request({ method: 'POST', url: '/api/v1/campaigns/', headers, payload });
    const inbound = await post({ title: 'Help line by SIP', campaign_type: 'Inbound', campaign_sip: 'sip:sales@pbx.example.com' });
    expect(inbound.statusCode, inbound.body).toBe(200);
    // An Outbound campaign at the same address is not a destination.
    expect((await post({ title: 'Out', campaign_type: 'Outbound', campaign_sip: 'sip:support@pbx.example.com' })).statusCode).toBe(200);
    const ring = (from: string, to: string) => h.t.request({ method: 'POST', url: '/api/v1/voice/sim/inbound', headers: h.account.headers, payload: { from, to } });

    const answered = await ring('sip:+12125550177@carrier.example.net;user=phone', 'sips:Sales@PBX.example.com:5061;transport=tls');
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toMatchObject({ campaign_id: inbound.json().id, contact_created: true, status: 'in progress' });
    const call = await h.t.deps.db.selectFrom('calls').selectAll().where('id', '=', answered.json().call_id).executeTakeFirstOrThrow();
    expect(call).toMatchObject({ call_type: 'inbound', to_number: 'sip:sales@pbx.example.com' });
    const contact = await h.t.deps.db.selectFrom('contacts').selectAll().where('id', '=', answered.json().contact_id).executeTakeFirstOrThrow();
    expect(contact.phone_number).toBe('+12125550177');

    for (const to of ['sip:support@pbx.example.com', 'sip:sales@other.example.com', 'sip:pbx.example.com']) {
      const missed = await ring('+12125550178', to);
      expect(missed.statusCode, to).toBe(404);
      expect(missed.json().detail).toMatch(/SIP address/);
    }
  });
});

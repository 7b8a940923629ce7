import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeVapi, type FakeVapi } from './fakes/vapi.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';
import { createCampaignViaApi } from './helpers/factories.ts';
import { redactLogLine } from '../src/logger.ts';

/**
 * A campaign's calls through the customer's SIP trunk on Vapi (issue 29), over real sockets: the
 * dialer makes a byo-sip-trunk credential and a BYO number for the trunk's caller ID once, calls go
 * out from that number, the trunk's refusals come back in Vapi's endedReasons and become statuses;
 * a changed trunk moves the number to a new credential.
 */
const KEY = 'fake-vapi-key-0029';
const SECRET = 'vapi-server-secret-0029';
const PASSWORD = 'vapi-trunk-password-0029';
const OWNED = '+12125550150';
const n = (i: number) => `+1212555026${i}`;

const logged: string[] = [];
let fake: FakeVapi;
let s: VendorScene;

beforeAll(async () => {
  const log = pino({ level: 'debug', hooks: { streamWrite: redactLogLine } }, { write: (line: string) => void logged.push(line) });
  s = await vendorScene(
    { VAPI_API_KEY: KEY, VAPI_WEBHOOK_SECRET: SECRET, VAPI_BASE_URL: 'http://127.0.0.1:9', VAPI_PHONE_NUMBER_ID: 'pn-out', VAPI_CALLS_PER_SECOND: '0' },
    async (serviceUrl) => (fake = await startFakeVapi({
      apiKey: KEY, webhookSecret: SECRET, serverUrl: `${serviceUrl}/api/v1/voice/vapi/events`, phoneNumbers: { 'pn-out': '+12125550100', 'pn-sip-desk': 'sip:desk@sip.vapi.ai', 'pn-sip-other': 'sip:other@sip.vapi.ai' },
      ringMs: 20, talkMs: 60, timeScale: 60,
      sip: { sipAuth: { 'trunk.example.com': { username: 'acme', password: PASSWORD }, 'gw2.example.net': { username: 'acme', password: PASSWORD } }, sipCodes: { [n(2)]: 480, [n(3)]: 486, [n(4)]: 404, [n(5)]: 503 } },
    })),
    'VAPI_BASE_URL',
    { log },
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

async function trunkCampaign(trunk: Record<string, unknown>, campaignSip = 'sip:trunk.example.com:5080;transport=tcp') {
  const created = await s.api('POST', '/api/v1/sip-trunks/', { name: 'Carrier', username: 'acme', password: PASSWORD, caller_ids: [OWNED], ...trunk });
  expect(created.statusCode, created.body).toBe(200);
  const a = await s.assistant({ name: 'Agent', provider: 'vapi', first_message: 'Hello from Acme.' });
  const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id, max_call_attempts: 1, campaign_sip: campaignSip });
  expect((await s.api('PUT', `/api/v1/campaigns/${campaign.id}/sip-trunk`, { sip_trunk_id: created.json().id })).statusCode).toBe(200);
  return { campaignId: campaign.id as number, trunkId: created.json().id as number };
}

const code = (c: { call_data: unknown }) => (c.call_data as { sip_response_code?: number }).sip_response_code ?? null;

describe('a campaign through its SIP trunk on Vapi', () => {
  it('makes the credential and BYO number once, calls from it through the trunk, and maps the trunk\'s refusals', async () => {
    const { campaignId, trunkId } = await trunkCampaign({});
    for (let i = 1; i <= 5; i++) await s.contact(campaignId, n(i), `Person ${i}`);
    await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaignId}`);
    const calls = await s.settled(campaignId, 5, 40_000);

    // One credential and one number for five calls, whatever the dialer's parallelism.
    const posted = fake.sip.received.filter((r) => r.method === 'POST');
    expect(posted.map((r) => r.path)).toEqual(['/credential', '/phone-number']);
    expect(posted[0]!.body).toEqual({
      provider: 'byo-sip-trunk', name: expect.any(String),
      gateways: [{ ip: 'trunk.example.com', port: 5080, outboundEnabled: true, inboundEnabled: false, outboundProtocol: 'tcp' }],
      outboundAuthenticationPlan: { authUsername: 'acme', authPassword: PASSWORD }, outboundLeadingPlusEnabled: true,
    });
    const [credential] = [...fake.sip.credentials.values()];
    const [number] = [...fake.sip.numbers.values()];
    expect(posted[1]!.body).toMatchObject({ provider: 'byo-phone-number', number: OWNED, credentialId: credential!.id, numberE164CheckEnabled: true });
    const trunkCalls = fake.calls.filter((c) => c.call.phoneNumberId === number!.id);
    expect(trunkCalls.map((c) => c.call.customer?.number).sort()).toEqual([1, 2, 3, 4, 5].map(n));
    expect(fake.sip.legs.find((l) => l.to === n(1))).toMatchObject({ gateway: { ip: 'trunk.example.com', port: 5080 }, auth: { username: 'acme', password: PASSWORD }, leadingPlus: true, code: 200 });
    const remembered = await s.t.deps.db.selectFrom('sip_trunk_vendor_numbers').selectAll().where('trunk_id', '=', trunkId).execute();
    expect(remembered).toMatchObject([{ route: 'vapi', number: OWNED, vendor_credential_id: credential!.id, vendor_number_id: number!.id }]);
    expect(JSON.stringify(remembered)).not.toContain(PASSWORD);

    const byNumber = Object.fromEntries(calls.map((c) => [c.to_number, c]));
    // 480 and 503 are named in Vapi's endedReason; 486 comes as customer-busy; 404 only as failed-to-connect.
    expect([1, 2, 3, 4, 5].map((i) => [byNumber[n(i)]!.status, code(byNumber[n(i)]!)])).toEqual([
      ['finished', null], ['unavailable', 480], ['busy_or_rejected', null], ['failed', null], ['unavailable', 503],
    ]);
    expect(calls.map((c) => c.from_number)).toEqual(calls.map(() => OWNED));

    // The password reached Vapi only: not the API's answers, the calls, the table or the log.
    for (const a of [await s.api('GET', `/api/v1/calls/?campaign_id=${campaignId}&limit=100`), await s.api('GET', '/api/v1/sip-trunks/')]) expect(a.body).not.toContain(PASSWORD);
    expect(JSON.stringify(calls)).not.toContain(PASSWORD);
    expect(logged.length).toBeGreaterThan(5);
    expect(logged.join('')).not.toContain(PASSWORD);

    // The trunk changes (new password): the next call makes a new credential and moves the same number to it.
    const changed = await s.api('PUT', `/api/v1/sip-trunks/${trunkId}`, { name: 'Carrier', username: 'acme', password: 'wrong-password-0029', caller_ids: [OWNED], gateways: ['gw2.example.net:5062'] });
    expect(changed.statusCode, changed.body).toBe(200);
    await s.contact(campaignId, '+12125550270', 'Person 6');
    await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaignId}`);
    const after = await s.settled(campaignId, 6, 40_000);
    expect(fake.sip.received.slice(2).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /credential', `PATCH /phone-number/${number!.id}`]);
    expect(fake.sip.received[2]!.body).toMatchObject({ gateways: [{ ip: 'gw2.example.net', port: 5062, outboundProtocol: 'tcp' }], outboundAuthenticationPlan: { authPassword: 'wrong-password-0029' } });
    expect(fake.sip.numbers.size).toBe(1);
    expect(fake.sip.legs.at(-1)).toMatchObject({ gateway: { ip: 'gw2.example.net' }, to: '+12125550270' });
    // The trunk at gw2.example.net does not know these credentials: 403 in Vapi's endedReason, rejected.
    const sixth = after.find((c) => c.to_number === '+12125550270')!;
    expect([sixth.status, code(sixth)]).toEqual(['rejected', 403]);
  });

  it('refuses a trunk call on Vapi when the campaign names no trunk (no caller ID of its own), without calling', async () => {
    const a = await s.assistant({ name: 'Agent', provider: 'vapi' });
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id, max_call_attempts: 1, campaign_sip: 'sip:trunk.example.com' });
    const before = fake.calls.length;
    await s.contact(campaign.id, '+12125550280', 'Person');
    await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const [call] = await s.settled(campaign.id, 1, 20_000);
    expect(call!.status).toBe('failed');
    expect(JSON.stringify(call!.call_data)).toMatch(/name a SIP trunk/);
    expect(fake.calls.length).toBe(before);
  });
});

describe('inbound calls by SIP address on Vapi', () => {
  it('answers a call to a Vapi SIP number (sipUri) with the Inbound campaign whose campaign_sip it is; another address is refused', async () => {
    const a = await s.assistant({ name: 'Desk', provider: 'vapi', first_message: 'Thanks for calling the Vapi desk.' });
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Vapi SIP desk', campaign_type: 'Inbound', assistant_id: a.id, campaign_sip: 'sip:Desk@sip.vapi.ai' });
    const { call, answer } = await fake.ring({ from: 'sip:+12125550177@pbx.acme.example', toPhoneNumberId: 'pn-sip-desk' });
    expect(answer).toMatchObject({ assistant: { firstMessage: 'Thanks for calling the Vapi desk.' } });
    await fake.idle();
    const [row] = await s.settled(campaign.id, 1, 20_000);
    expect(row).toMatchObject({ call_type: 'inbound', to_number: 'sip:desk@sip.vapi.ai', external_session_id: call.id });
    const contact = await s.t.deps.db.selectFrom('contacts').selectAll().where('campaign_id', '=', campaign.id).executeTakeFirstOrThrow();
    expect(contact.phone_number).toBe('+12125550177');

    const other = await fake.ring({ from: 'sip:+12125550178@pbx.acme.example', toPhoneNumberId: 'pn-sip-other' });
    expect(other.answer).toEqual({ error: expect.any(String) });
    expect(await s.callsOf(campaign.id)).toHaveLength(1);
  });
});

import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTwilio, DEFAULT_CALLEE, type FakeCallee, type FakeTwilio } from './fakes/twilio.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';
import { createAccount, createCampaignViaApi } from './helpers/factories.ts';
import { twilioSign } from './fakes/twilio-types.ts';
import { redactLogLine } from '../src/logger.ts';

/**
 * A campaign's calls through the customer's SIP trunk on Twilio (issue 29), over real sockets: the
 * dialer asks the fake Twilio to dial the trunk's URI with the contact's number and the trunk's
 * digest credentials; the far end (the fake's SIP side) answers, refuses with a SIP code, or
 * challenges credentials that do not match; the codes become the interface's statuses.
 */
const SID = `AC${'b2'.repeat(16)}`;
const TOKEN = 'twilio-auth-token-0029';
const PASSWORD = 'trunk-digest-password-0029';
const OWNED = '+14155550150';
const n = (i: number) => `+1415555026${i}`;
const callees: Record<string, FakeCallee> = {
  [n(1)]: { answer: 'human', steps: [{ say: 'Yes, I am interested.' }, { hangup: true }] },
  [n(2)]: { answer: 'human', sipCode: 486 },
  [n(3)]: { answer: 'human', sipCode: 404 },
  [n(4)]: { answer: 'human', sipCode: 480 },
  [n(5)]: { answer: 'human', sipCode: 603 },
};
const calleeOf = (to: string) => callees[/^sip:([^@]+)@/.exec(to)?.[1] ?? to] ?? DEFAULT_CALLEE;

const logged: string[] = [];
let fake: FakeTwilio;
let s: VendorScene;

beforeAll(async () => {
  const log = pino({ level: 'debug', hooks: { streamWrite: redactLogLine } }, { write: (line: string) => void logged.push(line) });
  s = await vendorScene(
    { TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM_NUMBER: '+14155550100', TWILIO_CALLS_PER_SECOND: '0', PUBLIC_BASE_URL: 'http://127.0.0.1:9' },
    async () => (fake = await startFakeTwilio({
      accountSid: SID, authToken: TOKEN, callees: calleeOf, timeScale: 20, ringMs: 100,
      sipAuth: { 'trunk.example.com': { username: 'acme', password: PASSWORD } },
    })),
    'TWILIO_BASE_URL',
    { log },
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

async function trunkCampaign(password: string) {
  const trunk = await s.api('POST', '/api/v1/sip-trunks/', { name: 'Carrier', username: 'acme', password, caller_ids: [OWNED] });
  expect(trunk.statusCode, trunk.body).toBe(200);
  const a = await s.assistant({ name: 'Agent', provider: 'twilio', first_message: 'Hello from Acme.' });
  const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id, max_call_attempts: 1, campaign_sip: 'sips:trunk.example.com:5061' });
  expect((await s.api('PUT', `/api/v1/campaigns/${campaign.id}/sip-trunk`, { sip_trunk_id: trunk.json().id })).statusCode).toBe(200);
  expect((await s.api('PUT', `/api/v1/campaigns/${campaign.id}/recording`, { rule: 'always' })).statusCode).toBe(200);
  return campaign.id as number;
}

describe('a campaign through its SIP trunk on Twilio', () => {
  it('dials the trunk\'s URI with the trunk\'s credentials and a number it owns; SIP answers become statuses kept with their code', async () => {
    const campaignId = await trunkCampaign(PASSWORD);
    for (let i = 1; i <= 5; i++) await s.contact(campaignId, n(i), `Person ${i}`);
    await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaignId}`);
    const calls = await s.settled(campaignId, 5, 40_000);

    const asked = fake.calls.find((c) => c.params.To?.includes(n(1)))!.params;
    // Twilio takes TLS as ;transport=tls on a sip: URI (it dials no sips:).
    expect(asked).toMatchObject({ To: `sip:${n(1)}@trunk.example.com:5061;transport=tls`, SipAuthUsername: 'acme', SipAuthPassword: PASSWORD, From: OWNED });
    const byNumber = Object.fromEntries(calls.map((c) => [c.to_number, c]));
    const outcome = (i: number) => [byNumber[n(i)]!.status, (byNumber[n(i)]!.call_data as { sip_response_code?: number }).sip_response_code];
    expect([1, 2, 3, 4, 5].map(outcome)).toEqual([['finished', 200], ['busy_or_rejected', 486], ['invalid number', 404], ['unavailable', 480], ['rejected', 603]]);
    expect(byNumber[n(3)]!.call_ended_by_reason ?? (byNumber[n(3)]!.call_data as { ended_reason: string }).ended_reason).toMatch(/404/);

    // The password reached Twilio and nothing else: not the API's answers, the database's calls or the log.
    const answers = [await s.api('GET', `/api/v1/calls/?campaign_id=${campaignId}&limit=100`), await s.api('GET', '/api/v1/sip-trunks/')];
    for (const a of answers) expect(a.body).not.toContain(PASSWORD);
    expect(JSON.stringify(calls)).not.toContain(PASSWORD);
    expect(logged.length).toBeGreaterThan(5);
    expect(logged.join('')).not.toContain(PASSWORD);
  });

  it('tests the route with one call to a typed number: Twilio dials the trunk, the far end\'s 486 is on the call, nothing else is called', async () => {
    const campaignId = await trunkCampaign(PASSWORD);
    const placed = await s.api('POST', `/api/v1/campaigns/${campaignId}/sip-route/test`, { phone_number: n(2) });
    expect(placed.statusCode, placed.body).toBe(202);
    expect(placed.json()).toMatchObject({ sip_uri: `sips:${n(2)}@trunk.example.com:5061`, from_number: OWNED });
    const [call] = await s.settled(campaignId, 1, 20_000);
    expect(call).toMatchObject({ id: placed.json().call_id, call_type: null, status: 'busy_or_rejected' });
    expect((call!.call_data as { sip_response_code: number }).sip_response_code).toBe(486);
    expect(fake.calls.at(-1)!.params).toMatchObject({ To: `sip:${n(2)}@trunk.example.com:5061;transport=tls`, SipAuthUsername: 'acme', SipAuthPassword: PASSWORD, From: OWNED });
    expect(placed.body).not.toContain(PASSWORD);
  });

  it('is refused by the far end (403, rejected) when the trunk\'s credentials are wrong', async () => {
    const campaignId = await trunkCampaign('not-the-password-0000');
    await s.contact(campaignId, n(1), 'Person');
    await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaignId}`);
    const [call] = await s.settled(campaignId, 1, 40_000);
    expect(call!.status).toBe('rejected');
    expect((call!.call_data as { sip_response_code: number }).sip_response_code).toBe(403);
  });
});

describe('inbound calls by SIP address on Twilio', () => {
  it('answers a SIP Domain\'s call to an Inbound campaign\'s campaign_sip with the campaign\'s assistant, like a call to its number', async () => {
    const a = await s.assistant({ name: 'Desk', provider: 'twilio', first_message: 'Thanks for calling the SIP desk.' });
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'SIP desk', campaign_type: 'Inbound', assistant_id: a.id, campaign_sip: 'sip:desk@acme.sip.twilio.com' });
    const twiml = `${s.baseUrl}/api/v1/voice/twilio/twiml`;
    const events = `${s.baseUrl}/api/v1/voice/twilio/events`;
    const inbound = await fake.placeInboundCall({
      from: 'sip:+14155550177@pbx.acme.example', to: 'sip:desk@acme.sip.twilio.com:5060;transport=UDP', voiceUrl: twiml, statusCallback: events,
      callee: { answer: 'human', steps: [{ say: 'Yes, I am interested.' }, { hangup: true }] },
    });
    await inbound.done;
    expect(inbound.relay?.attributes.welcomeGreeting).toBe('Thanks for calling the SIP desk.');
    const [call] = await s.settled(campaign.id, 1, 20_000);
    expect(call).toMatchObject({ call_type: 'inbound', to_number: 'sip:desk@acme.sip.twilio.com' });
    const contact = await s.t.deps.db.selectFrom('contacts').selectAll().where('campaign_id', '=', campaign.id).executeTakeFirstOrThrow();
    expect(contact.phone_number).toBe('+14155550177');

    // Another address of the same domain has no campaign: Twilio is told to reject the call.
    const other = await fake.placeInboundCall({ from: 'sip:+14155550178@pbx.acme.example', to: 'sip:sales@acme.sip.twilio.com', voiceUrl: twiml, statusCallback: events });
    await other.done;
    expect(other.relay).toBeFalsy();
    expect(await s.callsOf(campaign.id)).toHaveLength(1);
  });

  it('answers a SIP address only for the Twilio account that signs the call: another account\'s connection reaches no campaign of alice', async () => {
    const a = await s.assistant({ name: 'Desk', provider: 'twilio', first_message: 'Alice\'s desk.' });
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Alice SIP desk', campaign_type: 'Inbound', assistant_id: a.id, campaign_sip: 'sip:front@alice.sip.twilio.com' });
    const bob = await createAccount(s.t);
    const BOB_SID = `AC${'c3'.repeat(16)}`;
    const BOB_TOKEN = 'bob-twilio-auth-token-0029';
    const connection = await s.t.request({ method: 'POST', url: '/api/v1/voice-connections/', headers: bob.headers, payload: { name: 'Bob Twilio', provider: 'twilio', api_key: BOB_TOKEN, account_sid: BOB_SID } });
    expect(connection.statusCode, connection.body).toBe(200);
    // A voice request as Twilio signs it: the URL with its query, the form's parameters.
    const ring = async (token: string, sid: string, query: string, callSid: string) => {
      const url = `${s.baseUrl}/api/v1/voice/twilio/twiml${query}`;
      const params = { CallSid: callSid, AccountSid: sid, From: 'sip:+14155550179@pbx.example.net', To: 'sip:front@alice.sip.twilio.com', Direction: 'inbound', CallStatus: 'ringing' };
      return fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSign(token, url, params) }, body: new URLSearchParams(params) });
    };
    const byBob = await ring(BOB_TOKEN, BOB_SID, `?connection=${connection.json().id}`, `CA${'d4'.repeat(16)}`);
    expect(byBob.status).toBe(200);
    const refused = await byBob.text();
    expect(refused).toContain('<Reject');
    expect(refused).not.toContain('ConversationRelay');
    expect(await s.callsOf(campaign.id)).toHaveLength(0);
    // The same request signed by alice's own Twilio account is answered by her campaign (the refusal above was the route's).
    const byAlice = await ring(TOKEN, SID, '', `CA${'e5'.repeat(16)}`);
    expect(await byAlice.text()).toContain('ConversationRelay');
    expect(await s.callsOf(campaign.id)).toHaveLength(1);
  });
});

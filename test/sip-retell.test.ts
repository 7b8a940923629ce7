import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRetell, type FakeRetell } from './fakes/retell.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';
import { createCampaignViaApi } from './helpers/factories.ts';
import { redactLogLine } from '../src/logger.ts';

/**
 * A campaign's calls through the customer's SIP trunk on Retell (issue 29), over real sockets: the
 * dialer imports the trunk's caller ID with the trunk's termination URI and credentials once,
 * calls go out from it, the trunk's refusals come back as Retell's disconnection reasons; a
 * changed trunk updates the imported number in place.
 */
const KEY = 'key_fake_retell_0029';
const AGENT = 'agent_sip_0029';
const PASSWORD = 'retell-trunk-password-0029';
const OWNED = '+13125550150';
const n = (i: number) => `+1312555026${i}`;

const logged: string[] = [];
let fake: FakeRetell;
let s: VendorScene;

beforeAll(async () => {
  const log = pino({ level: 'debug', hooks: { streamWrite: redactLogLine } }, { write: (line: string) => void logged.push(line) });
  s = await vendorScene(
    { RETELL_API_KEY: KEY, RETELL_BASE_URL: 'http://127.0.0.1:9', RETELL_AGENT_ID: AGENT, RETELL_FROM_NUMBER: '+13125550100', RETELL_CALLS_PER_SECOND: '0' },
    async (serviceUrl) => (fake = await startFakeRetell({
      apiKey: KEY, webhookUrl: `${serviceUrl}/api/v1/voice/retell/events`, fromNumbers: ['+13125550100'], agents: { [AGENT]: {} },
      ringMs: 20, talkMs: 100, analyzeMs: 20,
      sip: { sipAuth: { 'trunk.example.com': { username: 'acme', password: PASSWORD } }, sipCodes: { [n(2)]: 486, [n(3)]: 404, [n(4)]: 480 } },
    })),
    'RETELL_BASE_URL',
    { log },
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

describe('a campaign through its SIP trunk on Retell', () => {
  it('imports the caller ID with the trunk\'s termination URI once, calls from it, maps refusals, and updates it when the trunk changes', async () => {
    const trunk = await s.api('POST', '/api/v1/sip-trunks/', { name: 'Carrier', username: 'acme', password: PASSWORD, caller_ids: [OWNED] });
    expect(trunk.statusCode, trunk.body).toBe(200);
    const a = await s.assistant({ name: 'Agent', provider: 'retell', first_message: 'Hello from Acme.' });
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id, max_call_attempts: 1, campaign_sip: 'sips:trunk.example.com:5061' });
    expect((await s.api('PUT', `/api/v1/campaigns/${campaign.id}/sip-trunk`, { sip_trunk_id: trunk.json().id })).statusCode).toBe(200);
    for (let i = 1; i <= 4; i++) await s.contact(campaign.id, n(i), `Person ${i}`);
    await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const calls = await s.settled(campaign.id, 4, 40_000);

    expect(fake.sip.received).toEqual([{
      path: '/import-phone-number',
      body: { phone_number: OWNED, termination_uri: 'trunk.example.com:5061', transport: 'TLS', sip_trunk_auth_username: 'acme', sip_trunk_auth_password: PASSWORD, nickname: expect.any(String) },
    }]);
    expect(fake.calls.filter((c) => c.from_number === OWNED).map((c) => c.to_number).sort()).toEqual([1, 2, 3, 4].map(n));
    expect(fake.sip.legs.find((l) => l.to === n(1))).toMatchObject({ terminationUri: 'trunk.example.com:5061', transport: 'TLS', auth: { username: 'acme', password: PASSWORD }, code: 200 });
    const byNumber = Object.fromEntries(calls.map((c) => [c.to_number, c.status]));
    expect([1, 2, 3, 4].map((i) => byNumber[n(i)])).toEqual(['finished', 'busy_or_rejected', 'invalid number', 'unavailable']);
    expect(calls.map((c) => c.from_number)).toEqual(calls.map(() => OWNED));

    for (const r of [await s.api('GET', `/api/v1/calls/?campaign_id=${campaign.id}&limit=100`), await s.api('GET', '/api/v1/sip-trunks/')]) expect(r.body).not.toContain(PASSWORD);
    expect(JSON.stringify(calls)).not.toContain(PASSWORD);
    expect(logged.length).toBeGreaterThan(5);
    expect(logged.join('')).not.toContain(PASSWORD);

    // A new password: the number is updated in place (Retell keeps one record per number), then the trunk refuses it.
    const changed = await s.api('PUT', `/api/v1/sip-trunks/${trunk.json().id}`, { name: 'Carrier', username: 'acme', password: 'stale-password-0029', caller_ids: [OWNED] });
    expect(changed.statusCode, changed.body).toBe(200);
    await s.contact(campaign.id, '+13125550270', 'Person 5');
    await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const after = await s.settled(campaign.id, 5, 40_000);
    expect(fake.sip.received.slice(1)).toEqual([{
      path: `/update-phone-number/${OWNED}`,
      body: { termination_uri: 'trunk.example.com:5061', transport: 'TLS', auth_username: 'acme', auth_password: 'stale-password-0029' },
    }]);
    expect(fake.sip.numbers.get(OWNED)?.auth_password).toBe('stale-password-0029');
    expect(after.find((c) => c.to_number === '+13125550270')!.status).toBe('failed');
    expect(fake.sip.legs.at(-1)!.code).toBe(403);
  });
});

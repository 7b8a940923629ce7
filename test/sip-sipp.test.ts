import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTwilio, type FakeTwilio } from './fakes/twilio.ts';
import { sippPresent, startSipp, type Sipp } from './fakes/sipp.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';
import { createCampaignViaApi } from './helpers/factories.ts';

/**
 * A signalling-level end-to-end test of a campaign through a SIP trunk (issue 29): Debian's sipp
 * (package sip-tester) is the far end of the trunk. The fake Twilio dials the trunk's host for
 * real (a SIP INVITE over UDP to sipp, answering sipp's 401 challenge with the call's SipAuth
 * credentials), and reports sipp's final answer as SipResponseCode, which the service turns into
 * the call's status. The trunk hosts are public names, as campaign_sip requires; only the fake
 * resolves them to sipp on 127.0.0.1.
 */
const SID = `AC${'c3'.repeat(16)}`;
const TOKEN = 'twilio-auth-token-sipp';
const PASSWORD = 'sipp-digest-password-0029';
const OWNED = '+14155550150';
const present = sippPresent();
if (!present) console.warn('sip-sipp.test.ts skipped: /usr/bin/sipp is absent (Debian package sip-tester; .ci/run installs it)');

let fake: FakeTwilio;
let s: VendorScene;
let answering: Sipp;
let busy: Sipp;

beforeAll(async () => {
  if (!present) return;
  answering = await startSipp({ code: 200, auth: { username: 'acme', password: PASSWORD } });
  busy = await startSipp({ code: 486 });
  s = await vendorScene(
    { TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM_NUMBER: '+14155550100', TWILIO_CALLS_PER_SECOND: '0', PUBLIC_BASE_URL: 'http://127.0.0.1:9' },
    async () => (fake = await startFakeTwilio({
      accountSid: SID, authToken: TOKEN, timeScale: 20, ringMs: 50,
      callees: () => ({ answer: 'human', steps: [{ say: 'Hello?' }, { hangup: true }] }),
      sipTargets: { 'trunk.example.com': { host: '127.0.0.1', port: answering.port }, 'busy.example.com': { host: '127.0.0.1', port: busy.port } },
    })),
    'TWILIO_BASE_URL',
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
  await fake?.close();
  await answering?.close();
  await busy?.close();
});

async function trunkCampaign(campaignSip: string, password: string) {
  const trunk = await s.api('POST', '/api/v1/sip-trunks/', { name: 'Carrier', username: 'acme', password, caller_ids: [OWNED] });
  expect(trunk.statusCode, trunk.body).toBe(200);
  const a = await s.assistant({ name: 'Agent', provider: 'twilio', first_message: 'Hello from Acme.' });
  const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id, max_call_attempts: 1, campaign_sip: campaignSip });
  expect((await s.api('PUT', `/api/v1/campaigns/${campaign.id}/sip-trunk`, { sip_trunk_id: trunk.json().id })).statusCode).toBe(200);
  return campaign.id as number;
}

describe.skipIf(!present)('a trunk call answered by sipp over real SIP signalling', () => {
  it('passes the digest challenge with the trunk\'s credentials (200), is refused without them (403), and reports a busy trunk (486)', async () => {
    const good = await trunkCampaign('sip:trunk.example.com', PASSWORD);
    const wrong = await trunkCampaign('sip:trunk.example.com', 'not-the-password-0029');
    const engaged = await trunkCampaign('sip:busy.example.com;transport=udp', PASSWORD);
    const plan = [[good, '+14155550301'], [wrong, '+14155550302'], [engaged, '+14155550303']] as const;
    for (const [campaignId, phone] of plan) {
      await s.contact(campaignId, phone, 'Person');
      await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaignId}`);
    }
    const outcome = async (campaignId: number) => {
      const [call] = await s.settled(campaignId, 1, 20_000);
      return [call!.status, (call!.call_data as { sip_response_code?: number }).sip_response_code];
    };
    expect(await outcome(good), answering.output()).toEqual(['finished', 200]);
    expect(await outcome(wrong)).toEqual(['rejected', 403]);
    expect(await outcome(engaged), busy.output()).toEqual(['busy_or_rejected', 486]);
    // The answers came from sipp itself, over UDP, to the contact's number at the trunk.
    expect(fake.sipAnswers.map((a) => [a.to.replace(/;.*$/, ''), a.code]).sort()).toEqual([
      ['sip:+14155550301@trunk.example.com', 200], ['sip:+14155550302@trunk.example.com', 403], ['sip:+14155550303@busy.example.com', 486],
    ]);
  });
});

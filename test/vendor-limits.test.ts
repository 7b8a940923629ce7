import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { rawPost, watchHealth } from './helpers/raw-http.ts';
import { twilioSign } from './fakes/twilio-types.ts';
import { signRetell } from '../src/voice/providers/retell/retell-signature.ts';

/**
 * What an unauthenticated request to a vendor's entry point may cost the service: bodies over
 * the vendor's limits are refused (413) before anything is parsed or signed, and what is under
 * them is verified in time linear in its size, so /healthz keeps answering.
 */
const SID = `AC${'b2'.repeat(16)}`;
/** Generous for a shared, busy machine (a refusal takes milliseconds; before the fix, the form took minutes). */
const BOUND_MS = 5000;
const TOKEN = 'twilio-auth-token-limits';
const RETELL_KEY = 'retell-api-key-limits';
let t: TestApp;
let port: number;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp({ TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, PUBLIC_BASE_URL: 'http://127.0.0.1:9', RETELL_API_KEY: RETELL_KEY });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;
  (t.config as { PUBLIC_BASE_URL?: string }).PUBLIC_BASE_URL = baseUrl;
}, 60_000);
afterAll(() => t?.close());

const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'forged+signature=' };
/** `n` distinct parameters, short as the attack's (100,000 in 589 KB: under the service's general 1 MiB body limit). */
const forgedForm = (n: number) => Array.from({ length: n }, (_, i) => `p${i.toString(36)}=${i % 10}`).join('&');

describe('forged Twilio forms', () => {
  it('refuses a 100,000-parameter form at once, on every Twilio entry point, while /healthz answers', async () => {
    const body = forgedForm(100_000);
    expect(body.length).toBeLessThan(1024 * 1024);
    const health = watchHealth(baseUrl);
    for (const path of ['/api/v1/voice/twilio/events', '/api/v1/voice/twilio/twiml', '/api/v1/voice/twilio/action?call=1', '/api/v1/voice/twilio/amd?call=1',
      '/api/v1/messaging/twilio/status/env/1', '/api/v1/messaging/twilio/inbound/env']) {
      const answer = await rawPost(port, path, FORM, body);
      expect(answer.status, `${path}: ${answer.text}`).toBe(413);
      expect(answer.ms, path).toBeLessThan(BOUND_MS);
      expect(answer.text).toContain('"detail"');
    }
    const { slowestMs, answers } = await health.stop();
    expect(answers).toBeGreaterThan(0);
    expect(slowestMs).toBeLessThan(BOUND_MS);
  }, 30_000);

  it('refuses a form of more than 200 parameters under the size limit, before its signature is computed', async () => {
    const answer = await rawPost(port, '/api/v1/voice/twilio/events', FORM, forgedForm(201));
    expect(answer.status, answer.text).toBe(413);
    expect(answer.text).toContain('at most 200 parameters');
    const tiny = await rawPost(port, '/api/v1/voice/twilio/events', FORM, 'a&'.repeat(30_000));
    expect(tiny.status, tiny.text).toBe(413);
  });

  it('still verifies a form of 200 parameters: a forged one is 403, a signed one is applied', async () => {
    const params = Object.fromEntries(Array.from({ length: 197 }, (_, i) => [`Extra${i}`, 'x'.repeat(100)]));
    Object.assign(params, { CallSid: 'CA-limits', CallStatus: 'ringing', AccountSid: SID });
    const body = new URLSearchParams(params).toString();
    expect(body.length).toBeLessThan(64 * 1024);
    const forged = await rawPost(port, '/api/v1/voice/twilio/events', FORM, body);
    expect(forged.status, forged.text).toBe(403);
    const url = `${baseUrl}/api/v1/voice/twilio/events`;
    const signed = await rawPost(port, '/api/v1/voice/twilio/events', { ...FORM, 'x-twilio-signature': twilioSign(TOKEN, url, params) }, body);
    expect(signed.status, signed.text).toBe(200);
  });
});

describe('vendor JSON events', () => {
  /** Retell's call_ended of a two-hour call: the transcript three times, two with word timings. */
  function longRetellReport(): string {
    const turns = Array.from({ length: 1800 }, (_, i) => {
      const words = Array.from({ length: 10 }, (_, w) => ({ word: `word${w}`, start: i * 4 + w * 0.3, end: i * 4 + w * 0.3 + 0.25 }));
      return { role: i % 2 ? 'user' : 'agent', content: words.map((w) => w.word).join(' '), words };
    });
    const call = {
      call_id: 'retell-long-call', call_status: 'ended', disconnection_reason: 'user_hangup', start_timestamp: Date.now() - 7_200_000, end_timestamp: Date.now(),
      transcript: turns.map((x) => `${x.role}: ${x.content}`).join('\n'), transcript_object: turns, transcript_with_tool_calls: turns,
    };
    return JSON.stringify({ event: 'call_ended', call });
  }

  it('accepts a signed two-hour end-of-call report and refuses more than 4 MiB with 413', async () => {
    const report = longRetellReport();
    expect(report.length).toBeGreaterThan(1_500_000);
    const signed = await rawPost(port, '/api/v1/voice/retell/events', { 'content-type': 'application/json', 'x-retell-signature': signRetell(RETELL_KEY, report, new Date()) }, report);
    expect(signed.status, signed.text.slice(0, 300)).toBe(200);
    const forged = await rawPost(port, '/api/v1/voice/retell/events', { 'content-type': 'application/json', 'x-retell-signature': `v=${Date.now()},d=${'0'.repeat(64)}` }, report);
    expect(forged.status).toBe(401);
    const huge = `{"event":"call_ended","pad":"${'x'.repeat(4 * 1024 * 1024)}"}`;
    const tooLarge = await rawPost(port, '/api/v1/voice/retell/events', { 'content-type': 'application/json' }, huge);
    expect(tooLarge.status, tooLarge.text).toBe(413);
    expect(tooLarge.ms).toBeLessThan(BOUND_MS);
  }, 30_000);
});

describe('vendor JSON checked before its signature', () => {
  const forgedRetell = { 'content-type': 'application/json', 'x-retell-signature': `v=${Date.now()},d=${'0'.repeat(64)}` };

  it('refuses a forged event just under 4 MiB without parsing it, while /healthz answers', async () => {
    const body = JSON.stringify({ event: 'call_ended', call: { call_id: 'x', transcript_object: Array.from({ length: 45_000 }, (_, i) => ({ role: 'user', content: `words ${i}`, words: [{ word: 'w', start: i, end: i + 0.5 }] })) } });
    expect(body.length).toBeGreaterThan(3_900_000);
    const health = watchHealth(baseUrl);
    const answer = await rawPost(port, '/api/v1/voice/retell/events', forgedRetell, body);
    const { slowestMs } = await health.stop();
    expect(answer.status, answer.text).toBe(401);
    expect(answer.ms).toBeLessThan(BOUND_MS);
    expect(slowestMs).toBeLessThan(BOUND_MS);
  }, 30_000);

  it('still refuses text the database cannot store with 422', async () => {
    for (const body of ['{"event":"call_ended","call":{"call_id":"a\\u0000"}}', '{"call":{"transcript":"\\ud800"}}', `${'['.repeat(65)}${']'.repeat(65)}`]) {
      const answer = await rawPost(port, '/api/v1/voice/retell/events', forgedRetell, body);
      expect(answer.status, answer.text).toBe(422);
    }
  });
});

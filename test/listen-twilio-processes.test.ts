import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { closeDeps, depsFromDatabase, type Deps } from '../src/deps.ts';
import type { App } from '../src/app.ts';
import { startFakeTwilio, type FakeTwilio } from './fakes/twilio.ts';
import { startFakeStreamingLlm, type FakeStreamingLlm } from './fakes/llm-stream.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';
import { createCampaignViaApi } from './helpers/factories.ts';
import { postgresUrl } from './helpers/test-database.ts';
import { waitFor } from './helpers/wait-for.ts';
import { mulawRms, readAudio } from './helpers/listened-audio.ts';

/**
 * Listening to our agent's Twilio call with two service instances on one PostgreSQL database,
 * as behind a balancer: the operator listens on instance A, whose public URL leads to instance B
 * (where the dialer runs), so Twilio's media socket lands on B. B has no listener of the call: it
 * sends the frames on to A through PostgreSQL, and the operator hears both parties. Needs
 * TEST_DATABASE_URL (the embedded database is one process).
 */
const HAS_PG = Boolean(postgresUrl());
if (!HAS_PG) console.warn('listen-twilio-processes test skipped: set TEST_DATABASE_URL to run it on PostgreSQL');

const SID = `AC${'b2'.repeat(16)}`;
const TOKEN = 'twilio-auth-token-0002';
const FROM = '+14155550100';
const CALLEE = '+14155550118';
const ENV = { TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM_NUMBER: FROM, TWILIO_CALLS_PER_SECOND: '0' };

let fake: FakeTwilio;
let llm: FakeStreamingLlm;
let b: VendorScene;
let a: { app: App; deps: Deps; url: string; dataDir: string };

beforeAll(async () => {
  if (!HAS_PG) return;
  llm = await startFakeStreamingLlm(() => ({ tokens: ['How', ' can', ' I', ' help?'] }));
  b = await vendorScene(
    { ...ENV, PUBLIC_BASE_URL: 'http://127.0.0.1:9', LLM_BASE_URL: llm.url, LLM_MODEL: 'fake-model' },
    async () => (fake = await startFakeTwilio({
      accountSid: SID, authToken: TOKEN, timeScale: 20, ringMs: 100, replyTimeoutMs: 3000,
      callees: () => ({ answer: 'human', steps: [{ say: 'Hello?' }, { silenceMs: 60_000 }, { hangup: true }] }),
    })),
    'TWILIO_BASE_URL',
  );
  // Instance A: the same database, no workers, its public URL the balancer's (here: B).
  const dataDir = mkdtempSync(join(tmpdir(), 'vc-listen-a-'));
  const config = loadConfig({
    ...ENV, DATABASE_URL: b.t.database.databaseUrl!, DATA_DIR: dataDir, SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    LOG_LEVEL: 'silent', PUBLIC_BASE_URL: b.baseUrl, TWILIO_BASE_URL: fake.url,
  });
  const deps = depsFromDatabase(config, await openDatabase({ databaseUrl: config.DATABASE_URL!, dataDir, poolSize: 3 }));
  const app = await buildApp(deps, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  a = { app, deps, dataDir, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}, 60_000);

afterAll(async () => {
  if (a) {
    await a.app.close();
    await closeDeps(a.deps);
    rmSync(a.dataDir, { recursive: true, force: true });
  }
  await b?.close();
  await fake?.close();
  await llm?.close();
});

describe.skipIf(!HAS_PG)('listening to a Twilio call with two service instances', () => {
  it('hears the call on instance A though Twilio\'s media socket lands on instance B', async () => {
    const agent = await b.assistant({ name: 'Agent', provider: 'twilio', first_message: 'Hi {{contact.name}}.', system_prompt: 'You call.' });
    const campaign = await createCampaignViaApi(b.t, b.alice.headers, { assistant_id: agent.id });
    await b.contact(campaign.id, CALLEE, 'Lu');
    await b.api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const call = await waitFor(async () => (await b.callsOf(campaign.id)).find((c) => c.status === 'in progress'), 10_000);
    const ref = await waitFor(() => b.t.deps.db.selectFrom('call_provider_refs').select('provider_call_id').where('call_id', '=', call!.id).executeTakeFirst(), 10_000);
    const twilioCall = await fake.waitForCall(ref.provider_call_id);
    await waitFor(async () => twilioCall.status === 'in-progress', 10_000);

    const controller = new AbortController();
    const res = await fetch(`${a.url}/api/v1/live/calls/${call!.id}/audio`, { headers: b.alice.headers, signal: controller.signal });
    expect(res.status).toBe(200);
    const audio = readAudio(res);
    const bytes = audio.bytes;
    await waitFor(async () => bytes() >= 8000, 15_000, async () => `${bytes()} bytes; streams ${JSON.stringify(fake.streamsOf(twilioCall.sid))}`);
    const [stream] = fake.streamsOf(twilioCall.sid);
    // Asked for by A (named for it), opened on B (the public URL), B listening to nothing itself.
    expect(stream).toMatchObject({ name: `listen-${call!.id}-${a.deps.mediaBridge.node}`, opened: true, refused: null });
    expect(stream!.url.startsWith(b.baseUrl.replace(/^http/, 'ws'))).toBe(true);
    expect(b.t.deps.callAudio.has(call!.id)).toBe(false);
    expect(mulawRms(audio.all().subarray(160))).toBeGreaterThan(2000);
    controller.abort();
    await audio.done;
    await waitFor(async () => stream!.stopped, 5000);
  });
});

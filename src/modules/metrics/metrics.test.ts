import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount } from '../../../test/helpers/factories.ts';
import { dialerHarness, usNumber, type DialerHarness } from '../../../test/helpers/dialer-harness.ts';
import { startReceiver } from '../../../test/fakes/webhook-receiver.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { usPhone, waitForTask } from '../../../test/helpers/imports.ts';
import { createImportWorker } from '../imports/imports.worker.ts';
import { SIGNATURE_HEADER, signBody, webhookSecret } from '../../voice/signature.ts';
import { finishCall } from '../dialer/call-events/call-events.service.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const auth = { authorization: `Bearer ${TOKEN}` };

/** The value of one sample in the exposition text; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(match[3]);
  }
  return undefined;
}

async function scrape(t: TestApp): Promise<string> {
  const res = await t.request({ method: 'GET', url: '/metrics', headers: auth });
  expect(res.statusCode).toBe(200);
  return res.body;
}

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => t?.close());

  it('serves the Prometheus text format to the bearer of the token', async () => {
    const res = await t.request({ method: 'GET', url: '/metrics', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain('# TYPE voice_campaigns_http_request_duration_seconds histogram');
    expect(res.body).toContain('# TYPE voice_campaigns_calls_ended_total counter');
    expect(res.body).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(sample(res.body, 'voice_campaigns_calls_in_progress')).toBe(0);
    expect(sample(res.body, 'voice_campaigns_contacts_due')).toBe(0);
    expect(sample(res.body, 'voice_campaigns_db_pool_max_connections')).toBeGreaterThan(0);
    for (const state of ['total', 'idle', 'waiting']) expect(sample(res.body, 'voice_campaigns_db_pool_connections', { state })).toBeGreaterThanOrEqual(0);
    expect(sample(res.body, 'voice_campaigns_metrics_db_collect_failures_total')).toBe(0);
  });

  it('answers 401 without the token or with another one', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789abcdef' }, { authorization: TOKEN }, { 'x-api-key': TOKEN }]) {
      const res = await t.request({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json()).toEqual({ detail: 'Not authenticated' });
      expect(res.body).not.toContain('voice_campaigns_');
    }
    // An API key of an account is no way in either.
    const account = await createAccount(t);
    expect((await t.request({ method: 'GET', url: '/metrics', headers: account.headers })).statusCode).toBe(401);
  });

  it('times API requests under their route pattern, not the raw URL', async () => {
    const account = await createAccount(t);
    const res = await t.request({ method: 'GET', url: '/api/v1/campaigns/987654321', headers: account.headers });
    expect(res.statusCode).toBe(404);
    // Under /api, an unknown path is no route at all (elsewhere the dashboard answers for client-side routes).
    await t.request({ method: 'GET', url: '/api/v1/no/such/path/4711' });
    const text = await scrape(t);
    const labels = { method: 'GET', route: '/api/v1/campaigns/:id', status_code: '404' };
    expect(sample(text, 'voice_campaigns_http_request_duration_seconds_count', labels)).toBe(1);
    expect(sample(text, 'voice_campaigns_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(1);
    expect(sample(text, 'voice_campaigns_http_request_duration_seconds_count', { route: '(unmatched)', status_code: '404' })).toBe(1);
    expect(text).not.toContain('campaigns/987654321');
    expect(text).not.toContain('/no/such/path');
  });

  it('stays out of the OpenAPI document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });

  it('keeps each app\'s metrics apart', async () => {
    const other = await createTestApp({ METRICS_TOKEN: TOKEN });
    try {
      expect(other.deps.metrics.registry).not.toBe(t.deps.metrics.registry);
      const text = await scrape(other);
      expect(sample(text, 'voice_campaigns_http_request_duration_seconds_count', { route: '/api/v1/campaigns/:id' })).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  it('is not served (404) and requests are not timed', async () => {
    const t = await createTestApp();
    try {
      const res = await t.request({ method: 'GET', url: '/metrics', headers: auth });
      expect(res.statusCode).toBe(404);
      expect(await t.deps.metrics.registry.metrics()).not.toContain('voice_campaigns_http_request_duration_seconds_count');
    } finally {
      await t.close();
    }
  });
});

describe('METRICS_TOKEN validation', () => {
  const load = (value: string) => () => loadConfig({ DATA_DIR: '/tmp/unused', SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789', METRICS_TOKEN: value });
  it('refuses a short token or one with spaces, naming the setting without showing it', () => {
    expect(load('short')).toThrow(ConfigError);
    expect(load('short')).toThrow('METRICS_TOKEN=(5 characters, hidden): must be at least 16 characters');
    expect(load('has a space in the middle')).toThrow(/METRICS_TOKEN=\(25 characters, hidden\): must be printable ASCII without spaces/);
    expect(load(TOKEN)().METRICS_TOKEN).toBe(TOKEN);
  });
});

describe('call metrics', () => {
  let h: DialerHarness;
  beforeAll(async () => {
    h = await dialerHarness('2030-01-07T15:00:00Z', { METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => h?.close());

  it('counts calls started and ended, reads calls in progress and due contacts, and times the provider events route', async () => {
    const c = await h.campaign();
    const [id] = await h.contacts(c, [usNumber()], { contact_data: { _sim: { status: 'finished', duration: 30 } } });
    expect((await h.enqueue(c)).statusCode).toBe(200);
    let text = await scrape(h.t);
    expect(sample(text, 'voice_campaigns_contacts_due')).toBe(1);
    expect(sample(text, 'voice_campaigns_calls_started_total', { provider: 'sim', direction: 'outbound' })).toBeUndefined();

    expect(await h.round(c)).toBe(1);
    text = await scrape(h.t);
    expect(sample(text, 'voice_campaigns_calls_started_total', { provider: 'sim', direction: 'outbound' })).toBe(1);
    expect(sample(text, 'voice_campaigns_calls_in_progress')).toBe(1);
    expect(sample(text, 'voice_campaigns_contacts_due')).toBe(0);

    await h.advance(10 * 60_000); // the simulator's signed end event reaches the events service (in-process)
    expect((await h.callsOf(id!))[0]).toMatchObject({ status: 'finished' });
    // A vendor posts its events to the route, which is timed like every route.
    const body = JSON.stringify({ events: [] });
    const posted = await h.t.request({ method: 'POST', url: '/api/v1/voice/sim/events', payload: body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(webhookSecret(h.t.config), body, h.clock.now()) } });
    expect(posted.statusCode).toBe(200);
    text = await scrape(h.t);
    expect(sample(text, 'voice_campaigns_calls_ended_total', { status: 'finished', provider: 'sim' })).toBe(1);
    expect(sample(text, 'voice_campaigns_calls_in_progress')).toBe(0);
    expect(sample(text, 'voice_campaigns_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/voice/:provider/events', status_code: '200' })).toBeGreaterThanOrEqual(1);
  });

  it('labels a call that ended with its own vendor, not the service default (it said sim for a Vapi call)', async () => {
    const c = await h.campaign();
    const { calls: [call] } = await seed(h.t.deps.db, {
      contacts: [{ campaign: { id: c, owner_id: h.account.id }, phone_number: usNumber(), status: 'in progress', calls_attempts: 1 }],
      calls: [{ contact: 0, status: 'in progress', call_type: 'outbound', start_time: h.clock.now(), provider: 'vapi', voice_connection_id: null }],
    });
    await finishCall({ deps: h.t.deps, callId: call.id, outcome: { status: 'voicemail' } });
    const text = await scrape(h.t);
    expect(sample(text, 'voice_campaigns_calls_ended_total', { status: 'voicemail', provider: 'vapi' })).toBe(1);
    expect(sample(text, 'voice_campaigns_calls_ended_total', { status: 'voicemail', provider: 'sim' })).toBeUndefined();
  });
});

describe('webhook metrics', () => {
  it('counts deliveries by outcome and times the ones that sent a request', async () => {
    const t = await createTestApp({ METRICS_TOKEN: TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    const receiver = await startReceiver();
    try {
      const account = await createAccount(t);
      const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: account }] });
      const created = await t.request({ method: 'POST', url: '/api/v1/integrations/webhooks', headers: account.headers, payload: { url: `${receiver.url}/metrics-hook`, request_schema: 'name - client name', campaign_ids: [campaign.id] } });
      expect(created.statusCode).toBe(200);
      const sent = await t.request({ method: 'POST', url: `/api/v1/integrations/webhooks/${created.json().id}/test`, headers: account.headers });
      expect(sent.json()).toMatchObject({ status: 'sent' });
      const text = await scrape(t);
      expect(sample(text, 'voice_campaigns_webhook_deliveries_total', { outcome: 'sent' })).toBe(1);
      expect(sample(text, 'voice_campaigns_webhook_delivery_duration_seconds_count', { outcome: 'sent' })).toBe(1);
    } finally {
      await receiver.close();
      await t.close();
    }
  });
});

describe('import metrics', () => {
  it('counts the rows the import worker applies', async () => {
    const t = await createTestApp({ METRICS_TOKEN: TOKEN });
    const worker = createImportWorker(t.deps, { pollMs: 20 });
    worker.start();
    try {
      const account = await createAccount(t);
      const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: account }] });
      const items = [1, 2, 3].map((n) => ({ phone_number: usPhone(n), campaign_id: campaign.id }));
      const res = await t.request({ method: 'POST', url: '/api/v1/contacts/bulk', headers: account.headers, payload: items });
      expect(res.statusCode).toBe(200);
      expect(await waitForTask(t, account.headers, res.json().task_id)).toMatchObject({ status: 'completed', processed: 3 });
      expect(sample(await scrape(t), 'voice_campaigns_import_rows_total')).toBe(3);
    } finally {
      await worker.stop();
      await t.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, type Account } from '../../../test/helpers/factories.ts';
import { createFinishedCall } from '../../../test/helpers/finished-call.ts';
import { settled } from '../../../test/helpers/deliveries.ts';
import { startReceiver, type Receiver } from '../../../test/fakes/webhook-receiver.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { createWebhookWorker } from './webhooks.worker.ts';
import { blockedAddressReason, guardedLookup, hostAllowed } from '../../shared/ssrf-guard.ts';

// The private-network switch is OFF here (the default): nothing may reach the receiver.
let t: TestApp;
let alice: Account;
let receiver: Receiver;
const dns = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp();
  alice = await createAccount(t);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

/**
 * An integration whose URL the sender must refuse. Saving such a URL is refused at once (below),
 * so it is written to the row directly: what a URL saved before that check, or a name that
 * resolved elsewhere when saved (DNS rebinding), leaves behind. The connect-time guard is tested.
 */
async function integration(url: string, allowed_hosts?: string) {
  const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
  const res = await t.request({ method: 'POST', url: '/api/v1/integrations/webhooks', headers: alice.headers, payload: { url: 'https://receiver.example.com/in', request_schema: 'name - client', campaign_ids: [campaign.id] } });
  expect(res.statusCode, res.body).toBe(200);
  const host = allowed_hosts ? allowed_hosts.split(',') : [new URL(url.replace(/\{\{[^}]*\}\}/g, 'x')).hostname];
  await t.deps.db.updateTable('webhook_integrations').set({ url, allowed_hosts: host }).where('id', '=', res.json().id).execute();
  return { id: res.json().id as number, campaignId: campaign.id };
}

async function deliverThroughWorker(urls: string[]) {
  const made = [];
  for (const url of urls) {
    const i = await integration(url);
    await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: i.campaignId });
    made.push({ url, ...i });
  }
  const worker = createWebhookWorker(t.deps, {
    pollMs: 20,
    resolver: async (host) => {
      const address = dns.get(host);
      if (!address) throw new Error(`no test DNS entry for ${host}`);
      return [{ address, family: address.includes(':') ? 6 : 4 }];
    },
  });
  worker.start();
  try {
    return await Promise.all(made.map(async (m) => ({ ...m, row: (await settled(t.deps.db, m.id, 1))[0]! })));
  } finally {
    await worker.stop();
  }
}

describe('SSRF protection with WEBHOOK_ALLOW_PRIVATE_NETWORKS off', () => {
  it('refuses URLs whose host is a private, loopback or special address in any spelling, and logs why', async () => {
    const p = receiver.port;
    const urls = [
      `http://127.0.0.1:${p}/a`, `http://[::1]:${p}/a`, `http://10.1.2.3:${p}/a`, `http://172.16.5.4:${p}/a`, `http://192.168.1.10:${p}/a`,
      `http://169.254.169.254:${p}/latest`, `http://100.64.0.1:${p}/a`, `http://[fc00::1]:${p}/a`, `http://[::ffff:127.0.0.1]:${p}/a`,
      `http://2130706433:${p}/a`, `http://0177.0.0.1:${p}/a`, `http://0x7f.1:${p}/a`, `http://0.0.0.0:${p}/a`, `http://[ff02::1]:${p}/a`,
    ];
    const results = await deliverThroughWorker(urls);
    for (const r of results) {
      expect(r.row.status, r.url).toBe('failed');
      expect(r.row.reason, r.url).toMatch(/^blocked by SSRF protection: .* is an? (IPv4-mapped form|loopback|private|linkLocal|carrierGradeNat|uniqueLocal|unspecified|multicast)/);
      expect(r.row.http_status).toBeNull();
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it('checks the address DNS gives at connect time, so names pointing inside are refused', async () => {
    const p = receiver.port;
    const answers: Record<string, string> = {
      'loop.test': '127.0.0.1', 'loop6.test': '::1', 'ten.test': '10.0.0.7', 'corp.test': '172.31.0.1', 'home.test': '192.168.0.1',
      'meta.test': '169.254.169.254', 'cgnat.test': '100.100.1.1', 'ula.test': 'fd12:3456::1', 'mapped.test': '::ffff:127.0.0.1',
    };
    for (const [host, address] of Object.entries(answers)) dns.set(host, address);
    const results = await deliverThroughWorker(Object.keys(answers).map((h) => `http://${h}:${p}/x`));
    for (const r of results) {
      expect(r.row.status).toBe('failed');
      expect(r.row.reason, r.url).toMatch(new RegExp(`^blocked by SSRF protection: ${new URL(r.url).hostname.replace('.', '\\.')} resolves to`));
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it('shows the refusal in the test endpoint\'s answer and in the delivery log', async () => {
    const i = await integration(`http://127.0.0.1:${receiver.port}/t`);
    const res = await t.request({ method: 'POST', url: `/api/v1/integrations/webhooks/${i.id}/test`, headers: alice.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'test', status: 'failed' });
    expect(res.json().reason).toMatch(/blocked by SSRF protection: 127\.0\.0\.1 is a loopback address/);
    // The refusal says how to allow it while developing against a local receiver.
    expect(res.json().reason).toContain('set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true');
    const log = await t.request({ method: 'GET', url: `/api/v1/integrations/webhooks/${i.id}/deliveries?status=failed`, headers: alice.headers });
    expect(log.json().data[0].reason).toMatch(/SSRF/);
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses a URL whose host left the allowed hosts after placeholders were filled in', async () => {
    const i = await integration('https://{{contact_data.site}}/hook', 'crm.example.com');
    const campaign = i.campaignId;
    await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: campaign, contact_data: { name: 'x', site: 'evil.example.net' } });
    const worker = createWebhookWorker(t.deps, { pollMs: 20 });
    worker.start();
    const [row] = await settled(t.deps.db, i.id, 1);
    await worker.stop();
    expect(row!.status).toBe('failed');
    expect(row!.reason).toBe('blocked: the URL host evil.example.net is not in the allowed hosts');
  });
});

describe('the private-network switch', () => {
  it('says so in the log when a worker starts with it on, and is silent when it is off', async () => {
    const { Writable } = await import('node:stream');
    const pino = (await import('pino')).default;
    const logs = (allow: boolean) => {
      const lines: string[] = [];
      const logger = pino({ level: 'warn' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
      return { lines, worker: createWebhookWorker(t.deps, { logger, allowPrivateNetworks: allow, pollMs: 1000 }) };
    };
    const on = logs(true);
    const off = logs(false);
    on.worker.start();
    off.worker.start();
    await Promise.all([on.worker.stop(), off.worker.stop()]);
    expect(on.lines.join('')).toMatch(/WEBHOOK_ALLOW_PRIVATE_NETWORKS is on.*local development only/);
    expect(off.lines.join('')).not.toMatch(/WEBHOOK_ALLOW_PRIVATE_NETWORKS/);
  });
});

describe('the guard itself', () => {
  it('lets public unicast addresses through and names the class of every refused one', () => {
    expect(blockedAddressReason('8.8.8.8')).toBeNull();
    expect(blockedAddressReason('2606:4700:4700::1111')).toBeNull();
    expect(blockedAddressReason('172.32.0.1')).toBeNull();
    expect(blockedAddressReason('100.128.0.1')).toBeNull();
    expect(blockedAddressReason('172.15.255.255')).toBeNull();
    // IPv4-compatible IPv6 (::/96) embeds an IPv4 address some stacks still route.
    expect(blockedAddressReason('::127.0.0.1')).not.toBeNull();
    expect(blockedAddressReason('[::7f00:1]')).not.toBeNull();
    expect(blockedAddressReason('::808:808')).toMatch(/IPv4-compatible/);
    expect(blockedAddressReason('::ffff:10.0.0.1')).toMatch(/IPv4-mapped.*private/);
    expect(blockedAddressReason('255.255.255.255')).toMatch(/broadcast/);
  });

  it('resolves a public name to its address and refuses a mixed answer', async () => {
    const lookup = guardedLookup({ allowPrivateNetworks: false, resolver: async (h) => (h === 'ok.test' ? [{ address: '93.184.215.14', family: 4 }] : [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.1', family: 4 }]) });
    const ask = (host: string) => new Promise<{ error: Error | null; address: unknown }>((resolve) => lookup(host, {}, (error, address) => resolve({ error, address })));
    expect(await ask('ok.test')).toEqual({ error: null, address: '93.184.215.14' });
    expect((await ask('mixed.test')).error?.message).toMatch(/10\.0\.0\.1 is a private address/);
  });

  it('matches allowed hosts exactly or as a parent domain, never as a suffix of another name', () => {
    expect(hostAllowed('crm.example.com', ['example.com'])).toBe(true);
    expect(hostAllowed('EXAMPLE.com', ['example.com'])).toBe(true);
    expect(hostAllowed('badexample.com', ['example.com'])).toBe(false);
    expect(hostAllowed('example.com.evil.net', ['example.com'])).toBe(false);
    expect(hostAllowed('a.b.example.com', ['other.org', '*.example.com'])).toBe(true);
  });
});

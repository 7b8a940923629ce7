import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, type Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { blockedHostReason } from '../../shared/ssrf-guard.ts';

/**
 * A webhook URL the sender would refuse is refused when saved, at the url field, saying why; with
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS on it is saved as before (local development).
 */
let strict: TestApp;
let lenient: TestApp;
let alice: Account;
let bob: Account;
let aliceCampaign: number;
let bobCampaign: number;

beforeAll(async () => {
  [strict, lenient] = await Promise.all([createTestApp(), createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' })]);
  alice = await createAccount(strict);
  bob = await createAccount(lenient);
  aliceCampaign = (await seed(strict.deps.db, { campaigns: [{ owner: alice }] })).campaigns[0]!.id;
  bobCampaign = (await seed(lenient.deps.db, { campaigns: [{ owner: bob }] })).campaigns[0]!.id;
});
afterAll(async () => {
  await strict?.close();
  await lenient?.close();
});

const body = (url: string, campaignId: number) => ({ url, request_schema: 'name - client', campaign_ids: [campaignId] });
const create = (url: string) => strict.request({ method: 'POST', url: '/api/v1/integrations/webhooks/', headers: alice.headers, payload: body(url, aliceCampaign) });

describe('saving a webhook URL with the private-network switch off', () => {
  it.each([
    ['http://127.0.0.1:9000/hook', '127.0.0.1 is a loopback address'],
    ['http://2130706433/hook', '127.0.0.1 is a loopback address'],
    ['http://[::1]/hook', '::1 is a loopback address'],
    ['http://10.0.0.5/hook', '10.0.0.5 is a private address'],
    ['http://192.168.1.20/hook', '192.168.1.20 is a private address'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a linkLocal address'],
    ['http://localhost:3000/hook', 'localhost is a loopback name'],
    ['http://crm.localhost/hook', 'crm.localhost is a loopback name'],
  ])('refuses %s at the url field, saying why and how to allow it', async (url, why) => {
    const res = await create(url);
    expect(res.statusCode).toBe(422);
    const [issue] = res.json().detail;
    expect(issue.loc).toEqual(['body', 'url']);
    expect(issue.msg).toContain(why);
    expect(issue.msg).toContain('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true');
  });

  it('saves a public address, and a host that is a placeholder (checked when sending)', async () => {
    expect((await create('https://93.184.215.14/hook')).statusCode).toBe(200);
    const placeholder = await strict.request({ method: 'POST', url: '/api/v1/integrations/webhooks/', headers: alice.headers, payload: { ...body('https://{{contact_data.site}}/hook', aliceCampaign), allowed_hosts: 'example.com' } });
    expect(placeholder.statusCode, placeholder.body).toBe(200);
  });

  it('refuses such a URL in a change, leaving the webhook as it was; other changes of a stored URL still save', async () => {
    const created = (await create('https://93.184.215.14/hook')).json();
    const res = await strict.request({ method: 'PUT', url: `/api/v1/integrations/webhooks/${created.id}`, headers: alice.headers, payload: { url: 'http://10.1.1.1/in' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({ loc: ['body', 'url'] });
    const after = await strict.request({ method: 'GET', url: `/api/v1/integrations/webhooks/${created.id}`, headers: alice.headers });
    expect(after.json().url).toBe('https://93.184.215.14/hook');
    // A row holding a private URL (saved before this check): switching it off must not be blocked by it.
    await strict.deps.db.updateTable('webhook_integrations').set({ url: 'http://10.1.1.1/in', allowed_hosts: ['10.1.1.1'] }).where('id', '=', created.id).execute();
    const off = await strict.request({ method: 'PUT', url: `/api/v1/integrations/webhooks/${created.id}`, headers: alice.headers, payload: { is_active: false } });
    expect(off.statusCode, off.body).toBe(200);
  });
});

describe('with WEBHOOK_ALLOW_PRIVATE_NETWORKS on', () => {
  it('saves loopback and private URLs as before', async () => {
    for (const url of ['http://127.0.0.1:9000/hook', 'http://localhost:3000/hook', 'http://10.0.0.5/hook']) {
      const res = await lenient.request({ method: 'POST', url: '/api/v1/integrations/webhooks/', headers: bob.headers, payload: body(url, bobCampaign) });
      expect(res.statusCode, url).toBe(200);
    }
  });
});

describe('blockedHostReason', () => {
  it('refuses a name whose DNS answer includes a blocked address, and passes a public one', async () => {
    const resolver = async (host: string) => (host === 'inside.test' ? [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.9', family: 4 }] : [{ address: '93.184.215.14', family: 4 }]);
    expect(await blockedHostReason('inside.test', { resolver })).toBe('inside.test resolves to 10.0.0.9 is a private address');
    expect(await blockedHostReason('outside.test', { resolver })).toBeNull();
  });

  it('accepts a name that does not resolve, or not in time (the send-time guard still applies)', async () => {
    expect(await blockedHostReason('nowhere.test', { resolver: async () => { throw new Error('ENOTFOUND'); } })).toBeNull();
    expect(await blockedHostReason('slow.test', { resolver: () => new Promise(() => {}), timeoutMs: 50 })).toBeNull();
  });
});

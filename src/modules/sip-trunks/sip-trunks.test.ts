import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { appWithAccounts, createCampaignViaApi, type Account } from '../../../test/helpers/factories.ts';

let t: TestApp;
let alice: Account;

beforeAll(async () => void ({ t, alice } = await appWithAccounts()));
afterAll(() => t?.close());

const url = '/api/v1/sip-trunks';
const PASSWORD = 'carrier-digest-password-0042';
const create = (payload: Record<string, unknown>) => t.request({ method: 'POST', url, headers: alice.headers, payload });
const locOf = (res: { json(): any }) => res.json().detail[0].loc.join('.');

describe('SIP trunks', () => {
  it('stores a trunk with its password sealed and answered masked, caller IDs in E.164, gateways as written', async () => {
    const res = await create({ name: 'Carrier', username: 'acme', password: PASSWORD, gateways: ['34.120.1.7:5060', 'sip.carrier.example.com'], caller_ids: ['(415) 555-0100', '+1 415 555 0101'] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(Number), owner_id: alice.id, name: 'Carrier', username: 'acme', password: '****0042',
      gateways: ['34.120.1.7:5060', 'sip.carrier.example.com'], caller_ids: ['+14155550100', '+14155550101'], campaign_ids: [],
      created_at: expect.any(String), updated_at: expect.any(String),
    });
    const row = await t.deps.db.selectFrom('sip_trunks').select('password').where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(row.password).not.toContain(PASSWORD);
    expect(t.deps.secrets.open(row.password)).toBe(PASSWORD);
    for (const answer of [await t.request({ method: 'GET', url: `${url}/${body.id}`, headers: alice.headers }), await t.request({ method: 'GET', url, headers: alice.headers })]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).not.toContain(PASSWORD);
    }
  });

  it('refuses a username without a password, a private gateway, a bad caller ID, naming the field, and writes nothing', async () => {
    const before = (await t.request({ method: 'GET', url, headers: alice.headers })).json().count;
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', username: 'acme' }, 'body.password'],
      [{ name: 'x', password: PASSWORD }, 'body.username'],
      [{ name: 'x', gateways: ['sip.example.com', '10.1.2.3'] }, 'body.gateways.1'],
      [{ name: 'x', gateways: ['localhost:5060'] }, 'body.gateways.0'],
      [{ name: 'x', gateways: ['sip.example.com:99999'] }, 'body.gateways.0'],
      [{ name: 'x', caller_ids: ['front desk'] }, 'body.caller_ids.0'],
      [{ name: '' }, 'body.name'],
    ];
    for (const [payload, loc] of cases) {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(locOf(res)).toBe(loc);
    }
    expect((await t.request({ method: 'GET', url, headers: alice.headers })).json().count).toBe(before);
  });

  it('changes only what an update names, keeps the password left out, and audits the field names without the password', async () => {
    const trunk = (await create({ name: 'Old', username: 'acme', password: PASSWORD })).json();
    const res = await t.request({ method: 'PUT', url: `${url}/${trunk.id}`, headers: alice.headers, payload: { name: 'New', caller_ids: ['+14155550109'] } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'New', username: 'acme', password: '****0042', caller_ids: ['+14155550109'] });
    const rotated = await t.request({ method: 'PUT', url: `${url}/${trunk.id}`, headers: alice.headers, payload: { password: 'another-password-9999' } });
    expect(rotated.json().password).toBe('****9999');
    const events = (await t.request({ method: 'GET', url: '/api/v1/audit-events/?kind=sip_trunk.changed&limit=100', headers: alice.headers })).json().data
      .filter((e: { subject: { type: string; id: number } }) => e.subject.type === 'sip_trunk' && e.subject.id === trunk.id);
    expect(events.map((e: { details: { change: string; changed: string[] } }) => [e.details.change, e.details.changed])).toEqual([
      ['updated', ['password']], ['updated', ['caller_ids', 'name']], ['created', ['name', 'password', 'username']],
    ]);
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
    expect(JSON.stringify(events)).not.toContain('another-password');
  });

  it('is named by a campaign; a trunk in use cannot be deleted until the campaign lets it go', async () => {
    const trunk = (await create({ name: 'In use' })).json();
    const campaign = await createCampaignViaApi(t, alice.headers, { campaign_sip: 'sip:trunk.example.com;transport=tls' });
    const named = await t.request({ method: 'PUT', url: `/api/v1/campaigns/${campaign.id}/sip-trunk`, headers: alice.headers, payload: { sip_trunk_id: trunk.id } });
    expect(named.json()).toEqual({ campaign_id: campaign.id, sip_trunk_id: trunk.id });
    expect((await t.request({ method: 'GET', url: `${url}/${trunk.id}`, headers: alice.headers })).json().campaign_ids).toEqual([campaign.id]);
    const refused = await t.request({ method: 'DELETE', url: `${url}/${trunk.id}`, headers: alice.headers });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain(String(campaign.id));
    expect((await t.request({ method: 'PUT', url: `/api/v1/campaigns/${campaign.id}/sip-trunk`, headers: alice.headers, payload: { sip_trunk_id: 999999 } })).statusCode).toBe(422);
    await t.request({ method: 'PUT', url: `/api/v1/campaigns/${campaign.id}/sip-trunk`, headers: alice.headers, payload: { sip_trunk_id: null } });
    expect((await t.request({ method: 'DELETE', url: `${url}/${trunk.id}`, headers: alice.headers })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `${url}/${trunk.id}`, headers: alice.headers })).statusCode).toBe(404);
  });
});

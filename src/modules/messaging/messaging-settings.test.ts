import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, createSubUser, type Account, type SubUser } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';

/** A campaign's text settings (GET/PUT /campaigns/{id}/messaging) and the account's text caps. */
let t: TestApp;
let alice: Account;
let bob: Account;
let sub: SubUser;
let campaign: number;
let other: number;

beforeAll(async () => {
  t = await createTestApp();
  [alice, bob] = [await createAccount(t), await createAccount(t, { lawful: true })];
  const s = await seed(t.deps.db, { campaigns: [{ owner: alice }, { owner: alice }] });
  [campaign, other] = [s.campaigns[0].id, s.campaigns[1].id];
  sub = await createSubUser(t, alice.id, [campaign]);
});
afterAll(() => t?.close());

const call = (method: 'GET' | 'PUT', url: string, headers: Record<string, string>, payload?: object) => t.request({ method, url, headers, ...(payload ? { payload } : {}) });
const DEFAULTS = {
  channel: 'sms', follow_up_statuses: ['unavailable', 'busy_or_rejected', 'rejected', 'voicemail'], confirm_interested: false, delay_minutes: 5,
  max_per_contact: 2, prompt: null, template: null, whatsapp_content_sid: null, messaging_service_sid: null, reply_stops_calls: true,
  accept_inbound: true, ai_replies: true, max_ai_replies_per_day: 10,
};
const SID = (prefix: string) => `${prefix}${'0123456789abcdef'.repeat(2)}`;

describe('campaign text settings', () => {
  it('answers the defaults for a campaign that never saved any', async () => {
    const res = await call('GET', `/api/v1/campaigns/${other}/messaging`, alice.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ campaign_id: other, ...DEFAULTS, updated_at: null });
  });

  it('changes the fields sent, keeps the others, and reads back what it stored', async () => {
    const change = {
      channel: 'whatsapp', follow_up_statuses: ['voicemail', 'silence'], confirm_interested: true, delay_minutes: 0, template: 'Hi {{contact.name}}, {{ campaign.title }} here',
      whatsapp_content_sid: SID('HX'), messaging_service_sid: SID('MG'), ai_replies: false, max_ai_replies_per_day: 3,
    };
    const res = await call('PUT', `/api/v1/campaigns/${campaign}/messaging`, alice.headers, change);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ campaign_id: campaign, ...DEFAULTS, ...change });
    expect(res.json().updated_at).not.toBeNull();
    const second = await call('PUT', `/api/v1/campaigns/${campaign}/messaging`, alice.headers, { max_per_contact: 4, template: '' });
    expect(second.json()).toMatchObject({ ...change, max_per_contact: 4, template: null });
    expect((await call('GET', `/api/v1/campaigns/${campaign}/messaging`, alice.headers)).json()).toEqual(second.json());
    // Audited with what changed; a template's words are not recorded, their length is. Sending the same again is no event.
    const events = async () => (await t.deps.db.selectFrom('audit_events').select(['kind', 'subject_id', 'details']).where('kind', '=', 'campaign.messaging_changed')
      .where('subject_id', '=', campaign).orderBy('id').execute());
    const [first, last, ...more] = await events();
    expect(more).toEqual([]);
    expect(first!.details).toMatchObject({ changed: expect.arrayContaining(['channel', 'template', 'delay_minutes']), from: { channel: 'sms', template: null }, to: { channel: 'whatsapp', template: { characters: change.template.length } } });
    expect(JSON.stringify(first!.details)).not.toContain('Hi {{contact.name}}');
    expect(last!.details).toEqual({ changed: ['max_per_contact', 'template'], from: { max_per_contact: 2, template: { characters: change.template.length } }, to: { max_per_contact: 4, template: null } });
    await call('PUT', `/api/v1/campaigns/${campaign}/messaging`, alice.headers, { max_per_contact: 4 });
    expect(await events()).toHaveLength(2);
  });

  it('refuses an unknown placeholder, a malformed SID, a non-terminal status and out-of-range numbers with 422 naming the field', async () => {
    const cases: [object, string][] = [
      [{ template: 'Hi {{contact.name}} from {{user.email}}' }, 'template'],
      [{ template: 'Hi {{contact.name}' }, 'template'],
      [{ whatsapp_content_sid: 'HX123' }, 'whatsapp_content_sid'],
      [{ messaging_service_sid: SID('HX') }, 'messaging_service_sid'],
      [{ follow_up_statuses: ['in progress'] }, 'follow_up_statuses'],
      [{ delay_minutes: 10081 }, 'delay_minutes'],
      [{ max_per_contact: -1 }, 'max_per_contact'],
      [{ channel: 'pigeon' }, 'channel'],
    ];
    const before = (await call('GET', `/api/v1/campaigns/${campaign}/messaging`, alice.headers)).json();
    for (const [body, field] of cases) {
      const res = await call('PUT', `/api/v1/campaigns/${campaign}/messaging`, alice.headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().detail[0].loc.slice(0, 2), JSON.stringify(body)).toEqual(['body', field]);
    }
    const named = await call('PUT', `/api/v1/campaigns/${campaign}/messaging`, alice.headers, { template: '{{user.email}}' });
    expect(named.json().detail[0].msg).toContain('{{user.email}}');
    expect((await call('GET', `/api/v1/campaigns/${campaign}/messaging`, alice.headers)).json()).toEqual(before);
  });

  it('lets a granted sub-user read them and change the template, but not the owner-only fields (403 naming them)', async () => {
    expect((await call('GET', `/api/v1/campaigns/${campaign}/messaging`, sub.headers)).statusCode).toBe(200);
    const ok = await call('PUT', `/api/v1/campaigns/${campaign}/messaging`, sub.headers, { template: 'From the team: {{campaign.title}}', delay_minutes: 15, channel: 'whatsapp' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ template: 'From the team: {{campaign.title}}', delay_minutes: 15 });
    const refused = await call('PUT', `/api/v1/campaigns/${campaign}/messaging`, sub.headers, { prompt: 'Be pushy', max_per_contact: 50, delay_minutes: 1 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toContain('max_per_contact, prompt');
    expect((await call('GET', `/api/v1/campaigns/${campaign}/messaging`, alice.headers)).json().delay_minutes).toBe(15);
    expect((await call('GET', `/api/v1/campaigns/${other}/messaging`, sub.headers)).statusCode).toBe(403);
    expect((await call('PUT', `/api/v1/campaigns/${other}/messaging`, sub.headers, { delay_minutes: 1 })).statusCode).toBe(403);
  });

  it('gives another account 403 and changes nothing; an unknown campaign is 404', async () => {
    const before = (await call('GET', `/api/v1/campaigns/${campaign}/messaging`, alice.headers)).json();
    expect((await call('GET', `/api/v1/campaigns/${campaign}/messaging`, bob.headers)).statusCode).toBe(403);
    expect((await call('PUT', `/api/v1/campaigns/${campaign}/messaging`, bob.headers, { delay_minutes: 1 })).statusCode).toBe(403);
    expect((await call('GET', `/api/v1/campaigns/${campaign}/messaging`, alice.headers)).json()).toEqual(before);
    expect((await call('GET', '/api/v1/campaigns/999999999/messaging', alice.headers)).statusCode).toBe(404);
  });
});

describe('the account\'s text caps', () => {
  const CALLS = { quiet_hours_from: '08:00', quiet_hours_to: '21:00', max_calls_per_day: 3, max_calls_per_week: 7 };

  it('are read beside the call caps (defaults 2 and 5), kept when an update leaves them out, and audited when changed', async () => {
    expect((await call('GET', '/api/v1/compliance/settings', bob.headers)).json()).toEqual({ ...CALLS, max_texts_per_day: 2, max_texts_per_week: 5 });
    const set = await call('PUT', '/api/v1/compliance/settings', bob.headers, { ...CALLS, max_texts_per_day: 1, max_texts_per_week: 3 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ max_texts_per_day: 1, max_texts_per_week: 3 });
    expect((await call('PUT', '/api/v1/compliance/settings', bob.headers, { ...CALLS, max_calls_per_day: 2 })).json()).toMatchObject({ max_calls_per_day: 2, max_texts_per_day: 1, max_texts_per_week: 3 });
    const events = (await call('GET', '/api/v1/audit-events/?kind=account.caps_changed', bob.headers)).json();
    expect(events.data.map((e: { details: object }) => e.details)).toContainEqual({ channel: 'text', from: [2, 5], to: [1, 3] });
  });

  it('refuses a week cap below the day cap, or past 1000, with 422', async () => {
    const low = await call('PUT', '/api/v1/compliance/settings', bob.headers, { ...CALLS, max_texts_per_day: 4, max_texts_per_week: 3 });
    expect(low.statusCode).toBe(422);
    expect(low.json().detail[0].loc).toEqual(['body', 'max_texts_per_week']);
    expect((await call('PUT', '/api/v1/compliance/settings', bob.headers, { ...CALLS, max_texts_per_day: 1001 })).statusCode).toBe(422);
    expect((await call('PUT', '/api/v1/compliance/settings', sub.headers, { ...CALLS, max_texts_per_day: 9 })).statusCode).toBe(403);
  });
});

describe('mass assignment', () => {
  it('stores nothing from undeclared fields: the row stays the campaign\'s and its owner\'s (test/mass-assignment.test.ts names this check)', async () => {
    const victim = (await seed(t.deps.db, { campaigns: [{ owner: bob }] })).campaigns[0];
    const planted = { campaign_id: victim.id, owner_id: bob.id, updated_at: '2001-01-01T00:00:00Z', foo: 1, id: 77 };
    const res = await call('PUT', `/api/v1/campaigns/${other}/messaging`, alice.headers, { ...planted, delay_minutes: 9 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).not.toHaveProperty('foo');
    const rows = await t.deps.db.selectFrom('campaign_messaging').selectAll().where('campaign_id', 'in', [other, victim.id]).execute();
    expect(rows.map((r) => [Number(r.campaign_id), Number(r.owner_id), r.delay_minutes])).toEqual([[other, alice.id, 9]]);
    expect(rows[0]!.updated_at.getFullYear()).toBeGreaterThan(2001);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../../test/helpers/factories.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { insertContacts } from './contacts.repository.ts';

let t: TestApp;
let ownerId: number;
let campaignId: number;

beforeAll(async () => {
  t = await createTestApp();
  ownerId = (await createAccount(t)).id;
  const campaign = await t.deps.db.insertInto('campaigns').values({ owner_id: ownerId, title: 'Writes', campaign_type: 'Outbound' }).returning('id').executeTakeFirstOrThrow();
  campaignId = campaign.id;
});
afterAll(() => t.close());

const row = (phone: string) =>
  t.deps.db.selectFrom('contacts').selectAll().where('campaign_id', '=', campaignId).where('phone_number', '=', phone).executeTakeFirstOrThrow();

describe('insertContacts, the one contact-write path', () => {
  it('applies the defaults: status new, the number\'s zone when omitted, an explicit null kept', async () => {
    const written = await insertContacts(t.deps.db, ownerId, [
      { campaign_id: campaignId, phone_number: '+12025550101', creation_method: 'external_api' },
      { campaign_id: campaignId, phone_number: '+12025550102', creation_method: 'import', timezone: null, contact_data: { a: 1 } },
    ]);
    expect(written.map((w) => [w.phone_number, w.status, w.inserted])).toEqual([['+12025550101', 'new', true], ['+12025550102', 'new', true]]);
    expect((await row('+12025550101')).timezone).toBe('America/New_York');
    const second = await row('+12025550102');
    expect(second.timezone).toBeNull();
    expect(second.contact_data).toEqual({ a: 1 });
    expect(second.creation_method).toBe('import');
  });

  it('skips a duplicate of an existing contact and a repeat inside the batch, leaving the first untouched', async () => {
    const written = await insertContacts(t.deps.db, ownerId, [
      { campaign_id: campaignId, phone_number: '+12025550101', creation_method: 'import', contact_data: { overwritten: true } },
      { campaign_id: campaignId, phone_number: '+12025550103', creation_method: 'import', contact_data: { n: 1 } },
      { campaign_id: campaignId, phone_number: '+12025550103', creation_method: 'import', contact_data: { n: 2 } },
    ]);
    expect(written.map((w) => w.phone_number)).toEqual(['+12025550103']);
    expect((await row('+12025550101')).contact_data).toBeNull();
    expect((await row('+12025550103')).contact_data).toEqual({ n: 1 });
  });

  it('merges contact data and keeps or replaces the zone as asked', async () => {
    await insertContacts(t.deps.db, ownerId, [{ campaign_id: campaignId, phone_number: '+12025550103', creation_method: 'integration', contact_data: { m: 1 }, timezone: 'Europe/Paris' }], { merge: { timezone: 'keep' } });
    let merged = await row('+12025550103');
    expect(merged.contact_data).toEqual({ n: 1, m: 1 });
    expect(merged.timezone).toBe('America/New_York');
    const [again] = await insertContacts(t.deps.db, ownerId, [{ campaign_id: campaignId, phone_number: '+12025550103', creation_method: 'integration', contact_data: {}, timezone: 'Europe/Paris' }], { merge: { timezone: 'replace' } });
    expect(again).toMatchObject({ id: merged.id, inserted: false });
    merged = await row('+12025550103');
    expect(merged.timezone).toBe('Europe/Paris');
  });

  it('stores given stamps and the next action as written', async () => {
    await insertContacts(t.deps.db, ownerId, [{
      campaign_id: campaignId, phone_number: '+12025550104', creation_method: 'external_api', status: 'call_scheduled',
      next_action_time: '2031-02-03T04:05:06Z', next_action_reason: 'callback', created_at: '2020-01-01T00:00:00Z',
    }]);
    const r = await row('+12025550104');
    expect(r.status).toBe('call_scheduled');
    expect(new Date(r.next_action_time!).toISOString()).toBe('2031-02-03T04:05:06.000Z');
    expect(r.next_action_reason).toBe('callback');
    expect(new Date(r.created_at).toISOString()).toBe('2020-01-01T00:00:00.000Z');
  });
});

describe('the contact-write path is the only one', () => {
  it('no other source file inserts into contacts', () => {
    const root = join(import.meta.dirname, '../../');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.includes('/migrations/')) {
          if (/insertInto\(\s*'contacts'\s*\)|INSERT\s+INTO\s+contacts\b/i.test(readFileSync(path, 'utf8'))) offenders.push(relative(root, path));
        }
      }
    };
    walk(root);
    expect(offenders).toEqual(['modules/contacts/contacts.repository.ts']);
  });
});

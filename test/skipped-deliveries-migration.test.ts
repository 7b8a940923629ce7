import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createAccount, type Account } from './helpers/factories.ts';
import { createFinishedCall } from './helpers/finished-call.ts';
import { seed } from './helpers/seed.ts';
import { down, up } from '../src/db/migrations/0027_skipped_deliveries.ts';

/**
 * Migration 0027: deliveries skipped before skipped_by existed were all skipped for want of a
 * transcript, so an upgrade names that; a skipped row without its code cannot be written after it.
 */
let t: TestApp;
let owner: Account;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createAccount(t);
});
afterAll(() => t?.close());

describe('migration 0027_skipped_deliveries', () => {
  it('names the no-transcript skips written before it, keeps the other deliveries, and holds skipped_by to skipped rows', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner }] });
    const hook = await t.request({
      method: 'POST', url: '/api/v1/integrations/webhooks/', headers: owner.headers,
      payload: { url: 'https://93.184.215.14/hook', request_schema: 'name - client', campaign_ids: [campaign!.id] },
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const interested = await createFinishedCall(t.deps.db, { ownerId: owner.id, campaignId: campaign!.id });
    const silent = await createFinishedCall(t.deps.db, { ownerId: owner.id, campaignId: campaign!.id, transcript: null });
    await createFinishedCall(t.deps.db, { ownerId: owner.id, campaignId: campaign!.id, action_status: null });

    await down(t.deps.db as never);
    // Before it, a filtered call wrote nothing (down removes those rows) and a silent one a bare skipped row.
    const before = await t.deps.db.selectFrom('webhook_deliveries').select(['call_id', 'status']).where('integration_id', '=', hook.json().id).orderBy('call_id').execute();
    expect(before).toEqual([{ call_id: interested.id, status: 'pending' }, { call_id: silent.id, status: 'skipped' }]);
    await up(t.deps.db as never);

    const rows = await t.deps.db.selectFrom('webhook_deliveries').select(['call_id', 'status', 'skipped_by']).where('integration_id', '=', hook.json().id).orderBy('call_id').execute();
    expect(rows).toEqual([{ call_id: interested.id, status: 'pending', skipped_by: null }, { call_id: silent.id, status: 'skipped', skipped_by: 'no_transcript' }]);
    await expect(sql`UPDATE webhook_deliveries SET skipped_by = NULL WHERE call_id = ${silent.id}`.execute(t.deps.db)).rejects.toThrow(/webhook_deliveries_skipped_by_status/);
  });
});

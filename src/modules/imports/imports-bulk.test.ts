import { CHUNK_ROWS } from './imports.schemas.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import type { Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { usPhone, waitForTask, appWithImportWorker, type ImportScene } from '../../../test/helpers/imports.ts';
import { createImportWorker } from './imports.worker.ts';

let scene: ImportScene;
let t: TestApp;
let alice: Account;
let bob: Account;

beforeAll(async () => void ({ t, alice, bob } = scene = await appWithImportWorker()));
afterAll(() => scene?.close());

const bulk = (headers: Record<string, string>, payload: unknown) => t.request({ method: 'POST', url: '/api/v1/contacts/bulk', headers, payload: payload as object });
const contactsOf = (campaignId: number) =>
  t.deps.db.selectFrom('contacts').selectAll().where('campaign_id', '=', campaignId).orderBy('id').execute();

describe('bulk import', () => {
  it('answers a task at once and then imports the rows, explaining every row it did not take', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }], contacts: [{ campaign: 0, phone_number: usPhone(1), status: 'new' }] });
    const items = [
      { phone_number: '(212) 200-0000', campaign_id: campaign.id, contact_data: { name: 'Ann' } },
      { phone_number: usPhone(1), campaign_id: campaign.id },
      { phone_number: 'not a phone', campaign_id: campaign.id },
      { phone_number: '+1 212 200 0000', campaign_id: campaign.id, status: 'paused' },
      { phone_number: usPhone(2), campaign_id: campaign.id, status: 'paused' },
    ];
    const res = await bulk(alice.headers, items);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'pending', total: 5 });
    expect(typeof res.json().task_id).toBe('number');

    const done = await waitForTask(t, alice.headers, res.json().task_id);
    expect(done).toMatchObject({ task_id: res.json().task_id, kind: 'bulk', status: 'completed', total: 5, processed: 5, created: 2, skipped: 2, failed: 1, error_count: 3, failure_reason: null });
    expect(new Date(done.started_at).getTime()).toBeGreaterThanOrEqual(new Date(done.created_at).getTime());
    expect(new Date(done.finished_at).getTime()).toBeGreaterThanOrEqual(new Date(done.started_at).getTime());
    expect(done.errors).toEqual([
      { index: 1, phone_number: usPhone(1), reason: 'duplicate: the campaign already has this phone number' },
      { index: 2, phone_number: 'not a phone', reason: 'not a valid phone number' },
      { index: 3, phone_number: '+1 212 200 0000', reason: 'duplicate of row 1' },
    ]);

    const contacts = await contactsOf(campaign.id);
    expect(contacts.map((c) => [c.phone_number, c.status, c.creation_method])).toEqual([
      [usPhone(1), 'new', null],
      [usPhone(0), 'new', 'import'],
      [usPhone(2), 'paused', 'import'],
    ]);
    expect(contacts[1]!.contact_data).toEqual({ name: 'Ann' });
    expect(await t.deps.db.selectFrom('import_task_chunks').selectAll().where('task_id', '=', done.task_id).execute()).toEqual([]);
  });

  it('gives a contact the time zone of its number, the zone POST /api/v1/contacts/ gives the same number', async () => {
    const { campaigns: [imported] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { campaigns: [viaApi] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    // New York, Los Angeles, Berlin (read as written), and toll-free: several zones, so none.
    const numbers = [usPhone(60), '+1 310 200 0061', '+49 30 12345678', '+1 800 200 0062'];
    const res = await bulk(alice.headers, numbers.map((phone_number) => ({ phone_number, campaign_id: imported.id })));
    expect(res.json().columns).toBeNull();
    const done = await waitForTask(t, alice.headers, res.json().task_id);
    expect(done).toMatchObject({ created: 4, failed: 0, columns: null });

    const fromApi: Record<string, string | null> = {};
    for (const phone_number of numbers) {
      const created = await t.request({ method: 'POST', url: '/api/v1/contacts/', headers: alice.headers, payload: { campaign_id: viaApi.id, phone_number, status: 'new' } });
      expect(created.statusCode).toBe(200);
      fromApi[created.json().phone_number] = created.json().timezone;
    }
    expect(Object.values(fromApi)).toEqual(['America/New_York', 'America/Los_Angeles', 'Europe/Berlin', null]);
    // Rows are inserted in phone order, so compare by number.
    expect(Object.fromEntries((await contactsOf(imported.id)).map((c) => [c.phone_number, c.timezone]))).toEqual(fromApi);
  });

  it('queues created contacts at once when the campaign has auto_calls, and only those', async () => {
    const { campaigns: [auto] } = await seed(t.deps.db, { campaigns: [{ owner: alice, auto_calls: true }] });
    const { campaigns: [manual] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const res = await bulk(alice.headers, [
      { phone_number: usPhone(10), campaign_id: auto.id },
      { phone_number: usPhone(11), campaign_id: manual.id },
      { phone_number: usPhone(12), campaign_id: auto.id },
    ]);
    const done = await waitForTask(t, alice.headers, res.json().task_id);
    expect(done.created).toBe(3);
    expect((await contactsOf(auto.id)).map((c) => c.status)).toEqual(['added_to_queue', 'added_to_queue']);
    expect((await contactsOf(manual.id)).map((c) => c.status)).toEqual(['new']);
  });

  it('rejects a request naming another account\'s campaign with 403 before writing anything', async () => {
    const { campaigns: [mine] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { campaigns: [theirs] } = await seed(t.deps.db, { campaigns: [{ owner: bob }] });
    const before = await t.deps.db.selectFrom('import_tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const res = await bulk(alice.headers, [{ phone_number: usPhone(20), campaign_id: mine.id }, { phone_number: usPhone(21), campaign_id: theirs.id }]);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Not enough permissions' });
    const unknown = await bulk(alice.headers, [{ phone_number: usPhone(20), campaign_id: mine.id }, { phone_number: usPhone(21), campaign_id: 987654 }]);
    expect(unknown.statusCode).toBe(404);
    const after = await t.deps.db.selectFrom('import_tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(await contactsOf(mine.id)).toEqual([]);
  });

  it('answers 413 above 10,000 items and 422 for items of the wrong shape', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const many = Array.from({ length: 10_001 }, (_, i) => ({ phone_number: usPhone(i), campaign_id: campaign.id }));
    const big = await bulk(alice.headers, many);
    expect(big.statusCode).toBe(413);
    expect(big.json().detail).toContain('at most 10000 items');
    const bad = await bulk(alice.headers, [{ phone_number: usPhone(1), campaign_id: 'x' }, { campaign_id: campaign.id }, { phone_number: usPhone(2), campaign_id: campaign.id, status: 'bogus' }]);
    expect(bad.statusCode).toBe(422);
    const locs = bad.json().detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.0.campaign_id', 'body.1.phone_number', 'body.2.status']));
    expect(await contactsOf(campaign.id)).toEqual([]);
  });

  it('imports an empty array as a task that is already completed', async () => {
    const res = await bulk(alice.headers, []);
    expect(res.json()).toMatchObject({ status: 'completed', total: 0 });
  });

  it('lists only the caller\'s tasks and refuses another account\'s task with 403', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: bob }] });
    const res = await bulk(bob.headers, [{ phone_number: usPhone(30), campaign_id: campaign.id }]);
    const taskId = res.json().task_id;
    await waitForTask(t, bob.headers, taskId);
    const bobs = await t.request({ method: 'GET', url: '/api/v1/contacts/bulk', headers: bob.headers });
    expect(bobs.json()).toMatchObject({ count: 1, data: [{ task_id: taskId, status: 'completed', created: 1 }] });
    expect(bobs.json().data[0]).not.toHaveProperty('errors');
    const alices = await t.request({ method: 'GET', url: '/api/v1/contacts/bulk', headers: alice.headers });
    expect(alices.json().data.map((d: { task_id: number }) => d.task_id)).not.toContain(taskId);
    expect(alices.json().count).toBe(alices.json().data.length);
    expect((await t.request({ method: 'GET', url: `/api/v1/contacts/bulk/${taskId}`, headers: alice.headers })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/v1/contacts/bulk/99999999', headers: alice.headers })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/v1/contacts/bulk/${taskId}` })).statusCode).toBe(401);
  });

  it('imports several chunks of one large request in order with exact counts', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    // A full chunk and part of a second of distinct numbers; the second chunk ends with rows repeating the first's.
    const unique = CHUNK_ROWS + 1000;
    const total = unique + 500;
    expect(total).toBeGreaterThan(CHUNK_ROWS);
    const items = Array.from({ length: total }, (_, i) => ({ phone_number: usPhone(100_000 + (i % unique)), campaign_id: campaign.id }));
    const res = await bulk(alice.headers, items);
    const done = await waitForTask(t, alice.headers, res.json().task_id);
    expect(done).toMatchObject({ status: 'completed', total, processed: total, created: unique, skipped: 500, failed: 0 });
    expect(done.errors[0]).toEqual({ index: unique, phone_number: usPhone(100_000), reason: 'duplicate: the campaign already has this phone number' });
    expect((await contactsOf(campaign.id)).length).toBe(unique);
  });
});

describe('bulk import at scale', () => {
  it('keeps the first 1000 row errors and counts them all', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const items = Array.from({ length: 1500 }, (_, i) => ({ phone_number: `bad-${i}`, campaign_id: campaign.id }));
    const done = await waitForTask(t, alice.headers, (await bulk(alice.headers, items)).json().task_id);
    expect(done).toMatchObject({ status: 'completed', failed: 1500, error_count: 1500 });
    expect(done.errors).toHaveLength(1000);
    expect(done.errors[999]).toEqual({ index: 999, phone_number: 'bad-999', reason: 'not a valid phone number' });
  });

  it('lets two workers share the tasks without importing any row twice', async () => {
    await scene.worker.stop();
    const a = createImportWorker(t.deps, { pollMs: 5, workerId: 'a' });
    const b = createImportWorker(t.deps, { pollMs: 5, workerId: 'b' });
    try {
      const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
      const tasks = [];
      for (let r = 0; r < 3; r++) {
        // Each request repeats 1000 numbers of the one before it.
        const items = Array.from({ length: 4000 }, (_, i) => ({ phone_number: usPhone(200_000 + r * 3000 + i), campaign_id: campaign.id }));
        tasks.push((await bulk(alice.headers, items)).json().task_id);
      }
      a.start();
      b.start();
      const done = [];
      for (const id of tasks) done.push(await waitForTask(t, alice.headers, id));
      expect(done.reduce((s, d) => s + d.created, 0)).toBe(10_000);
      expect(done.reduce((s, d) => s + d.skipped, 0)).toBe(2000);
      expect(done.every((d) => d.processed === 4000 && d.failed === 0)).toBe(true);
      expect((await contactsOf(campaign.id)).length).toBe(10_000);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      scene.worker.start();
    }
  });
});

describe('stuck imports', () => {
  it('ends a task that every worker taking it failed to advance, with a reason', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    await scene.worker.stop();
    try {
      const res = await bulk(alice.headers, [{ phone_number: usPhone(40), campaign_id: campaign.id }]);
      const taskId = res.json().task_id;
      // Claimed five times without a committed chunk, the last claimer's lease run out.
      await t.deps.db.updateTable('import_tasks')
        .set({ status: 'running', locked_by: 'dead-worker', locked_at: new Date(Date.now() - 120_000), progress_at: new Date(Date.now() - 120_000), stalled_claims: 5 })
        .where('id', '=', taskId).execute();
      const sweeper = createImportWorker(t.deps, { pollMs: 20, leaseMs: 60_000 });
      sweeper.start();
      const done = await waitForTask(t, alice.headers, taskId);
      await sweeper.stop();
      expect(done).toMatchObject({ status: 'failed', processed: 0, created: 0 });
      expect(done.failure_reason).toBe('taken 5 times without progress: the import was stopped');
      expect(await contactsOf(campaign.id)).toEqual([]);
    } finally {
      scene.worker.start();
    }
  });
});

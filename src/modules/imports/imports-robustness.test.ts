import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { bearer, createAccount, login, type Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { multipartBody, usPhone, waitForTask } from '../../../test/helpers/imports.ts';
import { createImportWorker } from './imports.worker.ts';
import { MAX_STALLED_CLAIMS, sweepStuckTasks } from './import-claims.ts';
import { createImportsRepository } from './imports.repository.ts';
import type { BackgroundWorker } from '../../workers.ts';

// Found in review: each of these ended an import as failed, lost rows, or was a 500.
let t: TestApp;
let alice: Account;
let worker: BackgroundWorker | null = null;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createAccount(t);
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

const startWorker = () => {
  worker = createImportWorker(t.deps, { pollMs: 20 });
  worker.start();
};
const stopWorker = async () => {
  await worker?.stop();
  worker = null;
};
const taskRow = (id: number) => t.deps.db.selectFrom('import_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const bulk = (payload: unknown) => t.request({ method: 'POST', url: '/api/v1/contacts/bulk', headers: alice.headers, payload: payload as object });

describe('import robustness', () => {
  it('fails only the rows whose phone or time zone cell holds a NUL or is huge, and imports the rest', async () => {
    startWorker();
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const csv = `phone,tz,note\n${usPhone(1)},,ok\n12\u00003,,bad phone\n${usPhone(2)},Europe/Ber\u0000lin,bad zone\n${'9'.repeat(5000)},,huge\n${usPhone(3)},,ok\n`;
    const { payload, headers } = multipartBody({ campaign_id: String(campaign.id), phone_column: 'phone', timezone_column: 'tz' }, { name: 'c.csv', content: csv });
    const res = await t.request({ method: 'POST', url: '/api/v1/contacts/import/csv', headers: { ...alice.headers, ...headers }, payload });
    expect(res.statusCode, res.body).toBe(200);
    const done = await waitForTask(t, alice.headers, res.json().task_id);
    expect(done).toMatchObject({ status: 'completed', created: 2, failed: 3 });
    const shown = done.errors.map((e: { phone_number: string }) => e.phone_number);
    expect(shown[0]).toBe('123');
    expect(shown[2]).toHaveLength(65); // 64 characters and an ellipsis
    expect(done.errors[1].reason).toBe("'Europe/Berlin' is not an IANA time zone name (e.g. Europe/Berlin, America/New_York)");
    await stopWorker();
  });

  it('resumes a task a stopped service left running, however long it was down', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const res = await bulk(Array.from({ length: 50 }, (_, i) => ({ phone_number: usPhone(100 + i), campaign_id: campaign.id })));
    const id = res.json().task_id as number;
    // The state a cleanly stopped worker leaves, twenty minutes ago.
    await sql`UPDATE import_tasks SET status = 'running', locked_by = NULL, locked_at = NULL, started_at = now() - interval '21 minutes',
      progress_at = now() - interval '20 minutes' WHERE id = ${id}`.execute(t.deps.db);
    startWorker();
    expect(await waitForTask(t, alice.headers, id)).toMatchObject({ status: 'completed', created: 50, failure_reason: null });
    await stopWorker();
  });

  it('still ends a task that crashes every worker taking it', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const id = (await bulk([{ phone_number: usPhone(300), campaign_id: campaign.id }])).json().task_id as number;
    await sql`UPDATE import_tasks SET status = 'running', locked_by = 'crashed', locked_at = now() - interval '5 minutes',
      progress_at = now() - interval '1 minute', stalled_claims = ${MAX_STALLED_CLAIMS} WHERE id = ${id}`.execute(t.deps.db);
    expect(await sweepStuckTasks(t.deps.db, 15 * 60_000, 60_000)).toContain(id);
    expect(await taskRow(id)).toMatchObject({ status: 'failed', failure_reason: `taken ${MAX_STALLED_CLAIMS} times without progress: the import was stopped` });
    // A live worker's fresh lease is left alone.
    const live = (await bulk([{ phone_number: usPhone(301), campaign_id: campaign.id }])).json().task_id as number;
    await sql`UPDATE import_tasks SET status = 'running', locked_by = 'alive', locked_at = now(), progress_at = now(), stalled_claims = ${MAX_STALLED_CLAIMS} WHERE id = ${live}`.execute(t.deps.db);
    expect(await sweepStuckTasks(t.deps.db, 15 * 60_000, 60_000)).not.toContain(live);
  });

  it('imports a sub-user\'s upload only into campaigns still granted to it when the rows are applied', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const sub = await t.request({ method: 'POST', url: '/api/v1/sub-users', headers: alice.headers, payload: { username: 'uploader.sub', password: 'uploader password' } });
    expect(sub.statusCode, sub.body).toBe(200);
    const grant = (ids: number[]) => t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.json().id}/campaigns`, headers: alice.headers, payload: { campaign_ids: ids } });
    expect((await grant([campaign.id])).statusCode).toBe(200);
    const token = await login(t, 'uploader.sub', 'uploader password');
    const res = await t.request({ method: 'POST', url: '/api/v1/contacts/bulk', headers: bearer(token), payload: [{ phone_number: usPhone(700), campaign_id: campaign.id }] });
    expect(res.statusCode, res.body).toBe(200);
    expect((await grant([])).statusCode).toBe(200); // taken back before the worker runs
    startWorker();
    const done = await waitForTask(t, bearer(token), res.json().task_id);
    expect(done).toMatchObject({ status: 'completed', created: 0, failed: 1 });
    expect(done.errors[0].reason).toContain('no longer granted');
    await stopWorker();
  });

  it('keeps an upload alive while its data comes, and will not seal one the sweeper ended', async () => {
    const repo = createImportsRepository(t.deps.db);
    const task = await repo.insertTask(t.deps.db, { ownerId: alice.id, subUserId: null, kind: 'csv', sealed: false, fileName: 'slow.csv' });
    await sql`UPDATE import_tasks SET created_at = now() - interval '20 minutes' WHERE id = ${task.id}`.execute(t.deps.db);
    await repo.insertChunk(t.deps.db, { taskId: task.id, seq: 0, firstIndex: 0, rows: [[usPhone(400), 1, 'new', null, null]] });
    expect(await sweepStuckTasks(t.deps.db, 15 * 60_000, 60_000)).not.toContain(task.id);
    await sql`UPDATE import_tasks SET progress_at = now() - interval '16 minutes' WHERE id = ${task.id}`.execute(t.deps.db);
    expect(await sweepStuckTasks(t.deps.db, 15 * 60_000, 60_000)).toContain(task.id);
    expect(await repo.sealTask(t.deps.db, { taskId: task.id, total: 1, chunkCount: 1 })).toBeUndefined();
    expect(await taskRow(task.id)).toMatchObject({ status: 'failed', sealed: false });
  });
});

describe('auto_calls on creation', () => {
  it('queues a contact created new, and leaves one created with an outcome as it is (API and bulk import)', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice, auto_calls: true }] });
    const create = (phone: string, status: string) => t.request({ method: 'POST', url: '/api/v1/contacts/', headers: alice.headers, payload: { campaign_id: campaign.id, phone_number: phone, status } });
    expect((await create(usPhone(500), 'new')).json().status).toBe('added_to_queue');
    expect((await create(usPhone(501), 'invalid_number')).json().status).toBe('invalid_number');
    startWorker();
    const res = await bulk([
      { phone_number: usPhone(502), campaign_id: campaign.id, status: 'finished' },
      { phone_number: usPhone(503), campaign_id: campaign.id },
    ]);
    await waitForTask(t, alice.headers, res.json().task_id);
    const rows = await t.deps.db.selectFrom('contacts').select(['phone_number', 'status']).where('campaign_id', '=', campaign.id).orderBy('phone_number').execute();
    expect(rows.map((r) => r.status)).toEqual(['added_to_queue', 'invalid_number', 'finished', 'added_to_queue']);
    await stopWorker();
  });
});

describe('contact-creation integration input', () => {
  it('answers 422, creating nothing, for a NUL or a lone surrogate in query or form values (they were 500s)', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const created = await t.request({ method: 'POST', url: '/api/v1/integrations/contact-creation', headers: alice.headers, payload: { name: 'Form', campaign_ids: [campaign.id] } });
    expect(created.statusCode, created.body).toBe(200);
    const auth = { authorization: `Bearer ${created.json().token}` };
    const endpoint = '/api/v1/contact-creation-integration/create-contact';
    const bad: Record<string, string>[] = [
      { name: 'a\u0000b' },
      { contact_data: '{"note":"\\u0000"}' },
      { contact_data: '{"note":"\\ud800"}' },
    ];
    for (const extra of bad) {
      const query = new URLSearchParams({ campaign_id: String(campaign.id), phone: usPhone(600), ...extra });
      const res = await t.request({ method: 'GET', url: `${endpoint}?${query}`, headers: auth });
      expect(res.statusCode, JSON.stringify(extra)).toBe(422);
    }
    const form = await t.request({
      method: 'POST', url: endpoint, headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ campaign_id: String(campaign.id), phone: usPhone(600), name: 'x\u0000y' }).toString(),
    });
    expect(form.statusCode).toBe(422);
    expect(await t.deps.db.selectFrom('contacts').select('id').where('campaign_id', '=', campaign.id).execute()).toEqual([]);
  });
});

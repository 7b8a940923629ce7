import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithAccounts, type Account } from '../../../../test/helpers/factories.ts';
import { usPhone } from '../../../../test/helpers/imports.ts';
import type { TestApp } from '../../../../test/helpers/test-app.ts';
import type { Principal } from '../../auth/principal.ts';
import { createBulkSuppressionImport } from './suppression-imports.service.ts';
import { createSuppressionImportWorker } from './suppression-imports.worker.ts';

let t: TestApp;
let alice: Account;

beforeAll(async () => void ({ t, alice } = await appWithAccounts()));
afterAll(() => t?.close());

const principal = (): Principal => ({ kind: 'user', userId: alice.id, ownerId: alice.id, isSuperuser: false });
const task = (id: number) =>
  t.deps.db.selectFrom('suppression_imports').select(['status', 'processed', 'added', 'failed', 'locked_by', 'next_index']).where('id', '=', id).executeTakeFirstOrThrow();
const suppressed = async (phone: string) =>
  (await t.deps.db.selectFrom('suppressions').select('id').where('owner_id', '=', alice.id).where('phone_number', '=', phone).executeTakeFirst()) !== undefined;
const auditEvents = async (taskId: number) =>
  (await sql<{ ip: string | null; user_agent: string | null; actor_user_id: number | null; details: Record<string, unknown> }>`
    SELECT ip, user_agent, actor_user_id, details FROM audit_events WHERE kind = 'suppression.added' AND details->>'import_task_id' = ${String(taskId)}`.execute(t.deps.db)).rows;

/** A task row as a process that stored (or began) it and died would have left it. */
async function leftBehind(rows: [string, string | null, string | null][], lease: { by: string; secondsAgo: number } | null) {
  const inserted = await t.deps.db.insertInto('suppression_imports').values({
    owner_id: alice.id, created_by_user_id: alice.id, created_by_sub_user_id: null, kind: 'bulk', file_name: null,
    rows: JSON.stringify(rows), total: rows.length,
    requested_by: JSON.stringify({ principal: principal(), ip: '203.0.113.9', user_agent: 'crashed-client' }),
    ...(lease ? { status: 'running' as const, locked_by: lease.by, locked_at: sql<Date>`now() - make_interval(secs => ${lease.secondsAgo})`, started_at: sql<Date>`now()` } : {}),
  }).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

async function untilEnded(id: number) {
  await expect.poll(async () => (await task(id)).status).toMatch(/^(completed|failed)$/);
  return task(id);
}

describe('suppression imports in the claim-worker', () => {
  it('completes tasks left by a process that died: a pending one and a running one whose lease ran out, each with one audit event', async () => {
    const pending = await leftBehind([[usPhone(800), 'letter', null], ['nope', null, null]], null);
    const expired = await leftBehind([[usPhone(801), null, null], [usPhone(802), null, null]], { by: 'dead-worker', secondsAgo: 120 });
    // A task whose worker is alive (its lease is fresh) is not taken.
    const held = await leftBehind([[usPhone(803), null, null]], { by: 'live-worker', secondsAgo: 0 });

    const worker = createSuppressionImportWorker(t.deps, { pollMs: 20 });
    worker.start();
    try {
      expect(await untilEnded(pending)).toMatchObject({ status: 'completed', processed: 2, added: 1, failed: 1, locked_by: null });
      expect(await untilEnded(expired)).toMatchObject({ status: 'completed', processed: 2, added: 2, failed: 0, locked_by: null });
      expect(await task(held)).toMatchObject({ status: 'running', processed: 0, locked_by: 'live-worker' });
    } finally {
      await worker.stop();
    }
    expect(await suppressed(usPhone(800))).toBe(true);
    expect(await suppressed(usPhone(802))).toBe(true);
    expect(await suppressed(usPhone(803))).toBe(false);
    for (const [id, rows, added, failed] of [[pending, 2, 1, 1], [expired, 2, 2, 0]] as const) {
      const events = await auditEvents(id);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ ip: '203.0.113.9', user_agent: 'crashed-client', actor_user_id: alice.id, details: { kind: 'bulk', rows, added, failed } });
    }
  });

  it('the request applies no row itself: with no worker running it answers the pending task after its wait, and a worker completes it later', async () => {
    const items = [{ phone_number: usPhone(810) }, { phone_number: usPhone(811), reason: 'asked' }];
    const started = Date.now();
    const answer = await createBulkSuppressionImport({ db: t.deps.db, jobWakes: t.deps.jobWakes, waitMs: 300, principal: principal(), items, request: { ip: '198.51.100.7', headers: { 'user-agent': 'waiting-client' } } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(answer).toMatchObject({ kind: 'bulk', status: 'pending', total: 2, processed: 0, added: 0, started_at: null, finished_at: null });
    expect(await suppressed(usPhone(810))).toBe(false);
    expect(await auditEvents(answer.task_id)).toEqual([]);
    // No worker runs in this process: by default the request does not wait at all.
    const quick = Date.now();
    const unwaited = await createBulkSuppressionImport({ db: t.deps.db, jobWakes: t.deps.jobWakes, principal: principal(), items: [{ phone_number: usPhone(812) }] });
    expect(unwaited).toMatchObject({ status: 'pending', processed: 0 });
    expect(Date.now() - quick).toBeLessThan(5_000);

    const worker = createSuppressionImportWorker(t.deps, { pollMs: 20 });
    worker.start();
    try {
      expect(await untilEnded(answer.task_id)).toMatchObject({ status: 'completed', processed: 2, added: 2 });
    } finally {
      await worker.stop();
    }
    const read = await t.request({ method: 'GET', url: `/api/v1/suppressions/bulk/${answer.task_id}`, headers: alice.headers });
    expect(read.json()).toMatchObject({ task_id: answer.task_id, status: 'completed', processed: 2, added: 2, failed: 0 });
    expect(await suppressed(usPhone(811))).toBe(true);
    expect(await auditEvents(answer.task_id)).toMatchObject([{ ip: '198.51.100.7', user_agent: 'waiting-client', details: { rows: 2, added: 2, failed: 0 } }]);
  });

  it('a worker running in the process is woken by the request, which waits and answers the ended task', async () => {
    const worker = createSuppressionImportWorker(t.deps, { pollMs: 60_000 });
    worker.start();
    try {
      // The tick is a minute: only the in-process wake-up makes the task end within the default wait.
      const answer = await createBulkSuppressionImport({ db: t.deps.db, jobWakes: t.deps.jobWakes, principal: principal(), items: [{ phone_number: usPhone(820) }] });
      expect(answer).toMatchObject({ status: 'completed', processed: 1, added: 1 });
    } finally {
      await worker.stop();
    }
  });

  it('a worker stopped between batches hands the task back, and the next one resumes at its cursor', async () => {
    const rows = Array.from({ length: 2500 }, (_, i): [string, null, null] => [usPhone(1000 + i), null, null]);
    const id = await leftBehind(rows, null);
    const first = createSuppressionImportWorker(t.deps, { pollMs: 20, workerId: 'first' });
    first.start();
    await expect.poll(async () => (await task(id)).next_index).toBeGreaterThan(0);
    await first.stop();
    const after = await task(id);
    if (after.status === 'running') expect(after.locked_by).toBeNull();

    const second = createSuppressionImportWorker(t.deps, { pollMs: 20, workerId: 'second' });
    second.start();
    try {
      expect(await untilEnded(id)).toMatchObject({ status: 'completed', processed: 2500, added: 2500, failed: 0 });
    } finally {
      await second.stop();
    }
    expect(await auditEvents(id)).toHaveLength(1);
  });
});

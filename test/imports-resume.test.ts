import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createAccount, type Account } from './helpers/factories.ts';
import { seed } from './helpers/seed.ts';
import { multipartBody, usPhone } from './helpers/imports.ts';

// A SIGKILLed child must not leave the embedded database locked, and PGlite serves one
// process only, so the crash test runs on PostgreSQL.
const postgres = process.env.TEST_DATABASE_URL;
if (!postgres) console.warn('imports-resume: TEST_DATABASE_URL is unset; the crash-and-resume test needs PostgreSQL and is skipped');

let t: TestApp;
let alice: Account;
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (!postgres) return;
  t = await createTestApp();
  alice = await createAccount(t);
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await t?.close();
});

function startWorker(databaseUrl: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/import-worker-process.ts'], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, DATABASE_URL: databaseUrl, LEASE_MS: '500' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return child;
}

const taskRow = (id: number) => t.deps.db.selectFrom('import_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.skipIf(!postgres)('crash and resume', () => {
  it('resumes a large import after SIGKILL mid-task with no row imported twice and none lost', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    // 30,000 rows: every 10th repeats the row before it, every 97th is not a phone number.
    const lines = ['phone,n'];
    let expectedSkipped = 0;
    let expectedFailed = 0;
    for (let i = 0; i < 30_000; i++) {
      if (i % 97 === 5) {
        lines.push(`bad-${i},${i}`);
        expectedFailed++;
      } else if (i % 10 === 9 && (i - 1) % 97 !== 5) {
        lines.push(`${usPhone(i - 1)},${i}`);
        expectedSkipped++;
      } else lines.push(`${usPhone(i)},${i}`);
    }
    const { payload, headers } = multipartBody({ campaign_id: String(campaign.id) }, { name: 'big.csv', content: lines.join('\n') });
    const res = await t.request({ method: 'POST', url: '/api/v1/contacts/import/csv', headers: { ...alice.headers, ...headers }, payload });
    expect(res.statusCode).toBe(200);
    const taskId = res.json().task_id;

    const first = startWorker(t.database.databaseUrl!);
    const midway = await until(() => taskRow(taskId), (r) => r.processed >= 3000, 120_000);
    first.kill('SIGKILL');
    await once(first, 'exit');
    const killed = await taskRow(taskId);
    expect(midway.processed).toBeLessThan(30_000);
    expect(killed.status).toBe('running');
    expect(killed.processed).toBeLessThan(30_000);

    const second = startWorker(t.database.databaseUrl!);
    const done = await until(() => taskRow(taskId), (r) => r.status !== 'running' && r.status !== 'pending', 120_000);
    second.kill('SIGTERM');
    await once(second, 'exit');

    const count = await t.deps.db.selectFrom('contacts').select((eb) => eb.fn.countAll<number>().as('n')).where('campaign_id', '=', campaign.id).executeTakeFirstOrThrow();
    expect(done).toMatchObject({ status: 'completed', total: 30_000, processed: 30_000, failed: expectedFailed, skipped: expectedSkipped, created: 30_000 - expectedFailed - expectedSkipped });
    expect(Number(count.n)).toBe(done.created);
    const errors = done.errors as { index: number }[];
    expect(new Set(errors.map((e) => e.index)).size).toBe(errors.length);
    expect(await t.deps.db.selectFrom('import_task_chunks').select('seq').where('task_id', '=', taskId).execute()).toEqual([]);
  }, 240_000);
});

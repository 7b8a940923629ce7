import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './helpers/wait-for.ts';

/**
 * The set-up story as a newcomer lives it: `voice-campaigns serve` as a real process on
 * the embedded database, the first superuser from the environment, and the CLI working
 * while the service runs on the same data directory.
 */
const run = promisify(execFile);
const BIN = join(process.cwd(), 'bin/voice-campaigns.mjs');
const dataDir = mkdtempSync(join(tmpdir(), 'vc-cli-'));
let server: ChildProcess;
let baseUrl: string;
/** serve's stdout (not a terminal here, so JSON lines), and when each line arrived after launch. */
const output: { line: Record<string, unknown>; afterMs: number }[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const env = (extra: Record<string, string> = {}) => ({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', ...extra });
const cli = (...args: string[]) => run(process.execPath, [BIN, ...args], { env: env(), timeout: 60_000 });

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) return;
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const launched = Date.now();
  server = spawn(process.execPath, [BIN, 'serve'], {
    env: env({ PORT: String(port), FIRST_USER_EMAIL: 'admin@example.com', FIRST_USER_PASSWORD: 'first password', LOG_LEVEL: 'info' }),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let partial = '';
  server.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) output.push({ line: JSON.parse(line) as Record<string, unknown>, afterMs: Date.now() - launched });
  });
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('serve did not become ready');
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

async function loginAs(username: string, password: string) {
  return fetch(`${baseUrl}/api/v1/login/access-token`, { method: 'POST', body: new URLSearchParams({ username, password }) });
}

// The embedded story does not depend on TEST_DATABASE_URL: run it once, in the embedded pass.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('voice-campaigns serve on the embedded database', () => {
  it('creates the first superuser from FIRST_USER_EMAIL and FIRST_USER_PASSWORD', async () => {
    const res = await loginAs('admin@example.com', 'first password');
    expect(res.status).toBe(200);
    const { access_token } = (await res.json()) as { access_token: string };
    const me = await fetch(`${baseUrl}/api/v1/users/me`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(await me.json()).toMatchObject({ email: 'admin@example.com', is_superuser: true });
  });

  it('lets the CLI create a user and an API key while serve runs, and the key works at once', async () => {
    const created = await cli('users', 'create', '--email', 'ops@example.com', '--password', 'ops password', '--full-name', 'Ops');
    expect(created.stdout).toMatch(/created user \d+ <ops@example.com>/);
    const keyRun = await cli('api-keys', 'create', '--email', 'ops@example.com');
    const key = keyRun.stdout.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^vck_[A-Za-z0-9_-]{40,}$/);
    const me = await fetch(`${baseUrl}/api/v1/users/me`, { headers: { 'x-api-key': key } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: 'ops@example.com', full_name: 'Ops', is_superuser: false });
  });

  it('says what it is doing as JSON lines when stdout is not a terminal, starting at once', () => {
    const messages = output.map((o) => o.line.msg);
    expect(messages[0]).toBe('Starting voice-campaigns');
    // Before, the first line came once the database, migrations and app were ready (12-50 s on
    // a busy 2-core machine); now it comes before the service is even loaded.
    expect(output[0]!.afterMs).toBeLessThan(5_000);
    expect(messages).toContain(`Creating the embedded database in ${dataDir} (first start only)`);
    expect(messages).toContainEqual(expect.stringMatching(/^Applying migrations 1\/\d+ \(0001_foundation\)$/));
    expect(messages).toContain(`Listening on ${baseUrl}`);
    expect(messages).toContain(`Dashboard: ${baseUrl}/`);
    expect(messages.indexOf(`Listening on ${baseUrl}`)).toBeGreaterThan(messages.indexOf('Starting voice-campaigns'));
  });

  it('does not log the health probes at info (beforeAll polled /readyz until it answered)', async () => {
    const before = output.length;
    const [ready] = await Promise.all([fetch(`${baseUrl}/readyz`), fetch(`${baseUrl}/healthz`), fetch(`${baseUrl}/api/v1/users/me`)]);
    expect(ready.status).toBe(200);
    // The request to /users/me is logged: lines are written, only the probes' are not.
    await waitFor(async () => output.slice(before).some((o) => (o.line.req as { url?: string } | undefined)?.url === '/api/v1/users/me'));
    const urls = output.map((o) => (o.line.req as { url?: string } | undefined)?.url).filter(Boolean);
    expect(urls).not.toContain('/readyz');
    expect(urls).not.toContain('/healthz');
  });

  it('refuses a second serve on the same data directory with a clear message', async () => {
    const second = await run(process.execPath, [BIN, 'serve'], { env: env({ PORT: String(await freePort()) }), timeout: 60_000 }).catch((e) => e);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`The data directory ${dataDir} is in use by process ${server.pid}`);
    expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
  });

  it('rejects a bad setting at start, naming it', async () => {
    const bad = await run(process.execPath, [BIN, 'migrate'], { env: env({ PORT: 'eighty' }), timeout: 60_000 }).catch((e) => e);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/Invalid configuration:[\s\S]*PORT/);
  });

  it('prints usage for an unknown command', async () => {
    const res = await cli('frobnicate').catch((e) => e);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Usage: voice-campaigns');
  });
});

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The README's first hour, run as a newcomer runs it: its own commands, from a copy of the
 * repository (its tracked files, with node_modules linked: CI has just run `npm ci`), on a free
 * port, through a first finished call at the simulator speed the README gives.
 */
const run = promisify(execFile);
const copy = mkdtempSync(join(tmpdir(), 'vc-newcomer-'));
let service: ChildProcess | undefined;

afterAll(async () => {
  if (service && service.exitCode === null) {
    const exited = new Promise((r) => service!.once('exit', r));
    process.kill(-service.pid!, 'SIGTERM'); // the whole group: bash, npm and the service
    await exited;
  }
  rmSync(copy, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The shell blocks of the README's walk-through section, in order. */
function walkThrough(readme: string): string[] {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Walk-through'))!;
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

let receiver: ChildProcess | undefined;
afterAll(() => {
  if (receiver && receiver.exitCode === null) process.kill(-receiver.pid!, 'SIGTERM'); // bash and its node
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the README walk-through', () => {
  it('shows a finished, interested call within a minute of queueing it, its webhook at the CRM stand-in, and a follow-up text delivered', async () => {
    const { stdout } = await run('git', ['ls-files', '-z'], { maxBuffer: 16 * 1024 * 1024 });
    for (const file of stdout.split('\0').filter(Boolean)) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      try {
        cpSync(file, join(copy, file));
      } catch {} // a tracked file deleted in the work tree
    }
    symlinkSync(join(process.cwd(), 'node_modules'), join(copy, 'node_modules'));

    const [start, crm, steps, texts] = walkThrough(readFileSync(join(copy, 'README.md'), 'utf8'));
    // The CRM stand-in exactly as written, on a free port (and the webhook pointed at it).
    const crmPort = await freePort();
    expect(crm).toContain("listen(9000,'127.0.0.1')");
    let received = '';
    receiver = spawn('bash', ['-c', crm!.trim().replace('listen(9000,', `listen(${crmPort},`)], { cwd: copy, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    receiver.stdout!.on('data', (d: Buffer) => (received += d.toString()));
    // The start command exactly as written (its environment prefix included), with a free port.
    const port = await freePort();
    const env = { ...process.env, PORT: String(port), DATABASE_URL: '', LOG_LEVEL: 'warn' };
    delete (env as Record<string, string | undefined>).DATA_DIR;
    expect(start!.trim()).toBe('SIM_TIME_SCALE=60 WEBHOOK_ALLOW_PRIVATE_NETWORKS=true npm start');
    service = spawn('bash', ['-c', start!.trim()], { cwd: copy, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let stderr = '';
    service.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (service.exitCode !== null) throw new Error(`npm start exited: ${stderr}`);
      if (await fetch(`${base}/readyz`).then((r) => r.ok, () => false)) break;
      if (i > 900) throw new Error('the service did not become ready in 90 s');
      await new Promise((r) => setTimeout(r, 100));
    }

    const script = `${steps!}\n${texts!}`.replace('BASE=http://127.0.0.1:8000', `BASE=${base}`).replace('http://127.0.0.1:9000/crm', `http://127.0.0.1:${crmPort}/crm`);
    expect(script).not.toContain('127.0.0.1:8000');
    expect(script).not.toContain('127.0.0.1:9000');
    const started = Date.now();
    const result = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd: copy, env, timeout: 120_000 });
    const seconds = (Date.now() - started) / 1000;
    const lines = result.stdout.trim().split('\n');
    const summary = JSON.parse(lines.findLast((line) => line.includes('"calls_in_progress"'))!) as { contacts: { total: number }; calls_in_progress: number };
    expect(summary).toMatchObject({ contacts: { total: 1 }, calls_in_progress: 0 });
    const calls = JSON.parse(lines.findLast((line) => line.startsWith('{"data":') && line.includes('"end_time"'))!) as { data: { status: string; end_time: string | null }[]; count: number };
    expect(calls.count).toBe(1);
    expect(calls.data[0]!.end_time, result.stdout).not.toBeNull();
    expect(calls.data[0]!.status).not.toBe('in progress');
    // The call of step 6 and the text of step 9 together.
    expect(seconds).toBeLessThan(90);
    // The interested call's payload reaches the CRM stand-in, filled from the transcript.
    await expect.poll(() => received, { timeout: 30_000 }).toMatch(/^POST \/crm \{.*"name":"Ada".*\}/m);
    expect(JSON.parse(received.slice(received.indexOf('{')).split('\n')[0]!)).toMatchObject({ name: 'Ada', interested: 'yes' });
    expect((Date.now() - started) / 1000).toBeLessThan(120);
    // The follow-up text after the unanswered call, delivered by the simulator, from the default template.
    const sent = JSON.parse(lines.at(-1)!) as { data: { message: string; role_id: string; source: string; message_data: { status: string; purpose: string } }[] };
    const followUp = sent.data.find((m) => m.message_data.purpose === 'follow_up');
    expect(followUp, result.stdout).toMatchObject({ role_id: 'assistant', source: 'sms', message_data: { status: 'delivered' } });
    expect(followUp!.message).toMatch(/^Hi Grace, we tried to call you about Spring renewals\./);
  }, 240_000);
});

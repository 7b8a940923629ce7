import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from './helpers/test-database.ts';

/**
 * What a person typing a command gets for a mistake: one line naming it, an exit code, and
 * nothing changed. The CLI refuses what the API refuses.
 */
const BIN = join(process.cwd(), 'bin/voice-campaigns.mjs');
const dataDir = mkdtempSync(join(tmpdir(), 'vc-cli-errors-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function cli(args: string[], extra: Record<string, string> = {}) {
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', ...extra };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], { env, timeout: 90_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const firstLine = (text: string) => text.trim().split('\n')[0];

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the command line', () => {
  it('prints its usage for --help and exits 0', async () => {
    const res = await cli(['--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Usage: voice-campaigns');
  });

  it('names an unknown command, an unknown flag and a missing value (exit 2)', async () => {
    const [command, flag, missing] = await Promise.all([cli(['frobnicate']), cli(['serve', '--port', '9000']), cli(['users', 'create', '--email'])]);
    expect([command.code, flag.code, missing.code]).toEqual([2, 2, 2]);
    expect(firstLine(command.stderr)).toBe("voice-campaigns: unknown command 'frobnicate'");
    expect(firstLine(flag.stderr)).toBe("voice-campaigns: serve: Unknown option '--port' (settings are environment variables, e.g. PORT=9000 voice-campaigns serve)");
    expect(firstLine(missing.stderr)).toBe("voice-campaigns: users create: Option '--email <value>' argument missing");
  });

  it('says which migrations it applied on an empty database, then that none are left', { timeout: 120_000 }, async () => {
    const first = await cli(['migrate']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^applied \d+ migrations: 0001_foundation, /);
    const again = await cli(['migrate']);
    expect(again.stdout.trim()).toBe('database is up to date: no migration to apply');
  });

  it('refuses a user the API would refuse (422 there), and creates nothing', async () => {
    const [shortPassword, badEmail] = await Promise.all([
      cli(['users', 'create', '--email', 'new@example.com', '--password', 'x']),
      cli(['users', 'create', '--email', 'not-an-email', '--password', 'long enough password']),
    ]);
    expect(shortPassword.code).toBe(2);
    expect(firstLine(shortPassword.stderr)).toBe('voice-campaigns: users create: --password: String should have at least 8 characters');
    expect(badEmail.code).toBe(2);
    expect(firstLine(badEmail.stderr)).toBe('voice-campaigns: users create: --email: Input should be a valid email');
    const key = await cli(['api-keys', 'create', '--email', 'new@example.com']);
    expect(key.stderr.trim()).toBe('no user with e-mail new@example.com');
  });

  it('gives one line for a database it cannot reach and a port already in use', async () => {
    const taken: Server = await new Promise((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => resolve(s));
    });
    const port = (taken.address() as { port: number }).port;
    // A data directory serve would have to create: the port is checked before anything is.
    const freshDataDir = join(mkdtempSync(join(tmpdir(), 'vc-cli-port-')), 'data');
    try {
      const [refused, serveRefused, inUse] = await Promise.all([
        cli(['migrate'], { DATABASE_URL: 'postgres://app@127.0.0.1:1/app' }),
        cli(['serve'], { DATABASE_URL: 'postgres://app@127.0.0.1:1/app', PORT: '0', LOG_LEVEL: 'info' }),
        cli(['serve'], { PORT: String(port), DATA_DIR: freshDataDir, LOG_LEVEL: 'info' }),
      ]);
      const refusal = 'Cannot reach the database 127.0.0.1:1/app: nothing accepts connections there. Start PostgreSQL, or fix DATABASE_URL (unset it to use the embedded database)';
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe(refusal);
      // serve says each step once, then the one line.
      expect([serveRefused.code, serveRefused.stderr.trim()]).toEqual([1, refusal]);
      expect(serveRefused.stdout.trim().split('\n').map((l) => JSON.parse(l).msg)).toEqual(['Starting voice-campaigns', 'Connecting to PostgreSQL at 127.0.0.1:1']);
      expect(inUse.code).toBe(1);
      expect(inUse.stderr.trim()).toBe(`Port ${port} on 127.0.0.1 is already in use: stop the program using it, or set PORT to a free port`);
      expect(existsSync(freshDataDir)).toBe(false);
      // It said it was starting, and started nothing else.
      expect(inUse.stdout.trim().split('\n').map((l) => JSON.parse(l).msg)).toEqual(['Starting voice-campaigns']);
    } finally {
      taken.close();
      rmSync(dirname(freshDataDir), { recursive: true, force: true });
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the command line on PostgreSQL', () => {
  it('names a database that does not exist and how to create it', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = '/vc_no_such_database';
    const res = await cli(['migrate'], { DATABASE_URL: url.toString() });
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(`The database ${url.hostname}:${url.port || 5432}/vc_no_such_database does not exist: create it (createdb vc_no_such_database, or CREATE DATABASE "vc_no_such_database";) and start again`);
  });

  it('names the PostgreSQL host in its ready line, not an embedded data directory', async () => {
    const database = await createTestDatabase(inject('databaseTemplate'));
    const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info', PORT: '0', DATABASE_URL: database.databaseUrl!, SECRET_KEY: 'cli-errors-secret-key-0123456789-abcdefgh' };
    const child = spawn(process.execPath, [BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const line = await new Promise<Record<string, unknown>>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no ready line: ${out}`)), 60_000);
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const ready = out.split('\n').find((l) => l.includes('voice-campaigns ready'));
          if (ready) {
            clearTimeout(timer);
            resolve(JSON.parse(ready));
          }
        });
        child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
      });
      expect(line.database).toBe('postgres');
      expect(line.databaseHost).toBe(new URL(database.databaseUrl!).host);
      expect(line).not.toHaveProperty('dataDir');
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await database.drop().catch(() => {});
    }
  });
});

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startEmbeddedServer } from './embedded-server.ts';

describe('the embedded database server', () => {
  it('serves a data directory too deep for a socket path over a socket in a private temp directory, never open TCP', async () => {
    const base = mkdtempSync(join(tmpdir(), 'vc-deep-'));
    const dataDir = join(base, 'a-very-long-directory-name-'.repeat(4), 'data');
    const server = await startEmbeddedServer(dataDir, 4);
    try {
      expect(server.host).not.toBe('127.0.0.1');
      expect(server.host.startsWith(tmpdir())).toBe(true);
      expect(statSync(server.host).mode & 0o077).toBe(0); // only this user may reach the socket
      const client = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database: 'postgres' });
      await client.connect();
      expect((await client.query('SELECT 1 AS one')).rows[0].one).toBe(1);
      await client.end();
    } finally {
      await server.stop();
      rmSync(base, { recursive: true, force: true });
    }
    expect(() => statSync(server.host)).toThrow(); // removed at stop
  }, 60_000);

  it('takes over a lock whose pid now belongs to a process started after the lock was written (a crash, then pid reuse)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vc-reuse-'));
    const younger = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const lock = join(dataDir, 'embedded.lock');
      writeFileSync(lock, JSON.stringify({ pid: younger.pid, host: dataDir, port: 5432 }));
      const hourAgo = new Date(Date.now() - 3600_000);
      utimesSync(lock, hourAgo, hourAgo);
      const server = await startEmbeddedServer(dataDir, 2);
      await server.stop();
    } finally {
      younger.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('leaves a socket a live process answers on alone and says so in one line, though no lock names it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vc-foreign-'));
    const socketPath = join(dataDir, '.s.PGSQL.5432');
    const foreign = createServer((c) => c.end());
    await new Promise<void>((resolve) => foreign.listen(socketPath, resolve));
    try {
      await expect(startEmbeddedServer(dataDir, 2)).rejects.toThrow(
        `The data directory's database socket ${socketPath} is in use by another process, though its lockfile names no running process`,
      );
      expect(statSync(socketPath).isSocket()).toBe(true);
      expect(() => statSync(join(dataDir, 'embedded.lock'))).toThrow(); // the lock was given back
    } finally {
      await new Promise((r) => foreign.close(r));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

import { mkdtempSync, rmSync, statSync } from 'node:fs';
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
});

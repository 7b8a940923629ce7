import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

/**
 * Every test file gets its own real database: a copy of a migrated PGlite data
 * directory, or, when TEST_DATABASE_URL is set, a PostgreSQL database cloned from a
 * migrated template. Nothing is shared between files, so they run in parallel.
 */
export const postgresUrl = () => process.env.TEST_DATABASE_URL || undefined;

export function databaseUrlFor(name: string): string {
  const url = new URL(postgresUrl()!);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl() });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Run once per test run (global setup): a migrated template to copy from. */
export async function createTemplate(): Promise<{ template: string; cleanup(): Promise<void> }> {
  if (postgresUrl()) {
    const name = `vc_template_${process.pid}_${Date.now()}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    const handle = await openDatabase({ databaseUrl: databaseUrlFor(name), dataDir: tmpdir(), poolSize: 2 });
    await migrateToLatest(handle.db);
    await handle.close();
    return { template: name, cleanup: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'vc-template-'));
  const handle = await openDatabase({ dataDir: dir, poolSize: 2 });
  await migrateToLatest(handle.db);
  await handle.close();
  return { template: dir, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TestDatabase {
  handle: DatabaseHandle;
  dataDir: string;
  databaseUrl: string | undefined;
  drop(): Promise<void>;
}

export async function createTestDatabase(template: string): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vc-test-'));
  if (postgresUrl()) {
    const name = `vc_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    // Two files cloning the same template at once can collide; retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        break;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
    const databaseUrl = databaseUrlFor(name);
    const handle = await openDatabase({ databaseUrl, dataDir, poolSize: 10 });
    return {
      handle,
      dataDir,
      databaseUrl,
      async drop() {
        await handle.close();
        await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  cpSync(template, dataDir, { recursive: true });
  rmSync(join(dataDir, 'embedded.lock'), { force: true });
  const handle = await openDatabase({ dataDir, poolSize: 10 });
  return {
    handle,
    dataDir,
    databaseUrl: undefined,
    async drop() {
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

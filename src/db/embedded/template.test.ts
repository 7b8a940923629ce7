import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTemplate, seedFromTemplate } from './template.ts';

/** The initdb template a first start copies instead of running initdb (see template.ts). */
const root = mkdtempSync(join(tmpdir(), 'vc-template-'));
const templateDir = join(root, 'template');
beforeAll(() => buildTemplate(templateDir), 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the embedded database template', () => {
  it('seeds a missing data directory that PGlite then opens without initdb, with no table in it', async () => {
    const pgDir = join(root, 'fresh', 'pglite');
    mkdirSync(join(root, 'fresh'));
    expect(seedFromTemplate(pgDir, templateDir)).toBe(true);
    expect(existsSync(join(pgDir, 'PG_VERSION'))).toBe(true);
    expect(readdirSync(join(root, 'fresh'))).toEqual(['pglite']);
    const db = await PGlite.create({ dataDir: pgDir });
    try {
      const tables = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'");
      expect(tables.rows[0]!.n).toBe(0);
      await db.exec('CREATE TABLE t (id int)');
    } finally {
      await db.close();
    }
    // The copy is the database's own: the template is unchanged.
    const again = join(root, 'again', 'pglite');
    expect(seedFromTemplate(again, templateDir)).toBe(true);
    const second = await PGlite.create({ dataDir: again });
    try {
      expect((await second.query("SELECT to_regclass('public.t') AS t")).rows[0]).toEqual({ t: null });
    } finally {
      await second.close();
    }
  });

  it('leaves a directory alone that holds anything, and is not used when built by another PGlite', () => {
    const used = join(root, 'used');
    mkdirSync(used);
    writeFileSync(join(used, 'PG_VERSION'), '17');
    expect(seedFromTemplate(used, templateDir)).toBe(false);
    expect(readdirSync(used)).toEqual(['PG_VERSION']);

    const other = join(root, 'other-template');
    mkdirSync(other);
    writeFileSync(join(other, 'PG_VERSION'), '17');
    writeFileSync(join(other, 'voice-campaigns-template'), 'pglite 0.0.1');
    expect(seedFromTemplate(join(root, 'unseeded'), other)).toBe(false);
    expect(existsSync(join(root, 'unseeded'))).toBe(false);
    expect(seedFromTemplate(join(root, 'no-template'), join(root, 'missing'))).toBe(false);
  });
});

import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A fresh PGlite data directory, as initdb leaves it, built once (npm run build:db-template,
 * run by `prepare`) and copied into DATA_DIR on a first start: initdb is the slowest step of
 * a first start (about 3.5 of 9.5 s on a 2-core machine), a copy takes a fraction of that.
 * It holds no table: migrations still run on the copy, so it stays right when they change.
 * It is used only when built by the PGlite version installed (its data format can change);
 * anything else, including no template, falls back to initdb.
 */
export const TEMPLATE_DIR = fileURLToPath(new URL('../../../.cache/pglite-template', import.meta.url));
const STAMP = 'voice-campaigns-template';

function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  // The package's main entry sits in dist/; its package.json is one level up.
  const entry = require.resolve('@electric-sql/pglite');
  const pkg = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return `pglite ${pkg.version}`;
}

function usableTemplate(templateDir: string): boolean {
  try {
    return readFileSync(join(templateDir, STAMP), 'utf8') === pgliteVersion() && existsSync(join(templateDir, 'PG_VERSION'));
  } catch {
    return false;
  }
}

/**
 * Fills an empty or missing `pgDir` from the template; false (nothing changed) when the
 * directory already holds a database or has anything in it, or there is no usable template.
 * The copy goes to a sibling first and is renamed into place, so a crash mid-copy leaves no
 * half database for PGlite to resume.
 */
export function seedFromTemplate(pgDir: string, templateDir = TEMPLATE_DIR): boolean {
  if (existsSync(pgDir) && readdirSync(pgDir).length > 0) return false;
  if (!usableTemplate(templateDir)) return false;
  const staging = `${pgDir}.seeding-${process.pid}`;
  try {
    cpSync(templateDir, staging, { recursive: true, filter: (source) => !source.endsWith(STAMP) });
    if (existsSync(pgDir)) rmdirSync(pgDir);
    renameSync(staging, pgDir);
    return true;
  } catch {
    rmSync(staging, { recursive: true, force: true });
    return false;
  }
}

/** Runs initdb once into `templateDir` (replacing what is there) and stamps it with the PGlite version. */
export async function buildTemplate(templateDir = TEMPLATE_DIR): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const staging = `${templateDir}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(dirname(staging), { recursive: true });
  try {
    const db = await PGlite.create({ dataDir: staging });
    await db.close();
    writeFileSync(join(staging, STAMP), pgliteVersion());
    rmSync(templateDir, { recursive: true, force: true });
    renameSync(staging, templateDir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

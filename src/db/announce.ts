import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.ts';

/**
 * The line start-up says before it waits for the database: creating the embedded one takes
 * seconds, once. Read before the embedded server starts (it creates PG_VERSION).
 */
export function databaseAnnouncement(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>): string {
  if (config.DATABASE_URL) return `Connecting to PostgreSQL at ${new URL(config.DATABASE_URL).host}`;
  // PG_VERSION is written by initdb (or comes with the template): without it, this start creates the database.
  const fresh = !existsSync(join(config.DATA_DIR, 'pglite', 'PG_VERSION'));
  return fresh ? `Creating the embedded database in ${config.DATA_DIR} (first start only)` : `Opening the embedded database in ${config.DATA_DIR}`;
}

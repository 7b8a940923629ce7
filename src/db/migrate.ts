import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as foundation from './migrations/0001_foundation.ts';

/** Migrations are listed here in order; the same set runs on PGlite and PostgreSQL. */
const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies pending migrations; Kysely's lock table serialises concurrent starters. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

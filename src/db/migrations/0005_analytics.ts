import type { Kysely } from 'kysely';

/** Analytics indexes or rollups. */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}

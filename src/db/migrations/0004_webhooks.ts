import type { Kysely } from 'kysely';

/** Post-call webhook integrations and deliveries. */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}

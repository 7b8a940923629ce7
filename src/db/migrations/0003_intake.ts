import type { Kysely } from 'kysely';

/** Contact intake: import tasks and rows, contact-creation integrations. */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}

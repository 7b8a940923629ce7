import type { Kysely } from 'kysely';

/** Dialer: claims, provider events, usage counters. */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}

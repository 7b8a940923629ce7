import { sql, type Kysely } from 'kysely';

/**
 * Issue 29: a trunk number's vendor objects are made under a lease on their row (making_by,
 * making_until) instead of a transaction held across the vendor's HTTP request: on the embedded
 * database one connection serves the whole process, and a transaction held for a vendor's answer
 * held every other statement with it. A lease that runs out (its process died) is taken over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sip_trunk_vendor_numbers ADD COLUMN making_by text, ADD COLUMN making_until timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sip_trunk_vendor_numbers DROP COLUMN IF EXISTS making_by, DROP COLUMN IF EXISTS making_until`.execute(db);
}

import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';

export const insertApiKey = (db: Db, row: { owner_id: number; name: string | null; key_prefix: string; key_hash: string }) =>
  db.insertInto('api_keys').values(row).returning(['id', 'name', 'created_at', 'last_used_at']).executeTakeFirstOrThrow();

/**
 * The account's number of keys, under its row's lock so concurrent creates are ordered and two
 * cannot both take the last place. NO KEY UPDATE: it does not wait for the key-share locks that
 * inserts referencing users hold. Call inside a transaction.
 */
export async function lockAndCountKeys(trx: Db, ownerId: number): Promise<number> {
  await sql`SELECT 1 FROM users WHERE id = ${ownerId} FOR NO KEY UPDATE`.execute(trx);
  const { n } = await trx.selectFrom('api_keys').select((eb) => eb.fn.countAll<string>().as('n')).where('owner_id', '=', ownerId).executeTakeFirstOrThrow();
  return Number(n);
}

export const listKeysOf = (db: Db, ownerId: number) =>
  db.selectFrom('api_keys').select(['id', 'name', 'key_prefix', 'created_at', 'last_used_at']).where('owner_id', '=', ownerId).orderBy('id', 'desc').execute();

export const findApiKey = (db: Db, id: number) =>
  db.selectFrom('api_keys').select(['id', 'owner_id', 'name', 'key_prefix']).where('id', '=', id).executeTakeFirst();

/** True when this call deleted it (a concurrent delete of the same key may have come first). */
export async function deleteApiKeyRow(db: Db, id: number): Promise<boolean> {
  const deleted = await db.deleteFrom('api_keys').where('id', '=', id).executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

import { createHash, randomBytes } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/connection.ts';

/**
 * What an erasure leaves where a number must still be known (the do-not-call list, the contact
 * and call rows analytics counts): `erased:` and the first 32 hex digits of SHA-256 over the
 * account's salt and the number. The same number gives the same mark in one account (so it still
 * blocks dialling and texting), different marks in two accounts, and the mark alone does not give
 * the number back without the salt. The salt lives in the account's privacy_settings row.
 */
export const ERASED_PREFIX = 'erased:';

export function erasedMark(salt: string, phone: string): string {
  return ERASED_PREFIX + createHash('sha256').update(`${salt}|${phone}`, 'utf8').digest('hex').slice(0, 32);
}

/** The same mark computed in SQL (PostgreSQL's sha256), for a lookup of a number `phone` against an account's salt `salt`. */
export const erasedMarkSql = (salt: RawBuilder<unknown>, phone: RawBuilder<unknown>) =>
  sql<string>`${ERASED_PREFIX}::text || left(encode(sha256(convert_to(${salt} || '|' || ${phone}, 'UTF8')), 'hex'), 32)`;

/** The account's salt, made at its first erasure (in the erasure's transaction). */
export async function erasureSalt(db: Db, ownerId: number): Promise<string> {
  const salt = randomBytes(16).toString('hex');
  await db.insertInto('privacy_settings').values({ owner_id: ownerId, retention_days: null, erasure_salt: salt })
    .onConflict((oc) => oc.column('owner_id').doUpdateSet({ erasure_salt: sql`coalesce(privacy_settings.erasure_salt, excluded.erasure_salt)` })).execute();
  const row = await db.selectFrom('privacy_settings').select('erasure_salt').where('owner_id', '=', ownerId).executeTakeFirstOrThrow();
  return row.erasure_salt!;
}

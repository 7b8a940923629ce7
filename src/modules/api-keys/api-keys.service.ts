import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { conflict } from '../../shared/errors.ts';
import { generateToken } from '../../shared/secrets.ts';

/** Keys one account may hold: enough for every integration, bounded like every other input. */
export const MAX_API_KEYS_PER_ACCOUNT = 100;

/** A new key for the account (CLI and set-up paths: no cap). */
export async function createApiKey(db: Db, ownerId: number, name: string | null) {
  const { token, hash, displayPrefix } = generateToken('vck');
  const row = await db
    .insertInto('api_keys')
    .values({ owner_id: ownerId, name, key_prefix: displayPrefix, key_hash: hash })
    .returning(['id', 'name', 'created_at', 'last_used_at'])
    .executeTakeFirstOrThrow();
  return { ...row, masked_key: `${displayPrefix}****`, key: token };
}

/** A new key through the API: 409 once the account holds MAX_API_KEYS_PER_ACCOUNT. */
export async function createApiKeyWithinCap(db: Db, ownerId: number, name: string | null) {
  return db.transaction().execute(async (trx) => {
    // The account row's lock orders concurrent creates, so two cannot both take the last place.
    // NO KEY UPDATE: it does not wait for the key-share locks that inserts referencing users hold.
    await sql`SELECT 1 FROM users WHERE id = ${ownerId} FOR NO KEY UPDATE`.execute(trx);
    const { n } = await trx.selectFrom('api_keys').select((eb) => eb.fn.countAll<string>().as('n')).where('owner_id', '=', ownerId).executeTakeFirstOrThrow();
    if (Number(n) >= MAX_API_KEYS_PER_ACCOUNT) {
      throw conflict(`An account can hold at most ${MAX_API_KEYS_PER_ACCOUNT} API keys; delete one before generating another`);
    }
    return createApiKey(trx, ownerId, name);
  });
}

import type { Db } from '../../db/connection.ts';
import { generateToken } from '../../shared/secrets.ts';

export async function createApiKey(db: Db, ownerId: number, name: string | null) {
  const { token, hash, displayPrefix } = generateToken('vck');
  const row = await db
    .insertInto('api_keys')
    .values({ owner_id: ownerId, name, key_prefix: displayPrefix, key_hash: hash })
    .returning(['id', 'name', 'created_at', 'last_used_at'])
    .executeTakeFirstOrThrow();
  return { ...row, masked_key: `${displayPrefix}****`, key: token };
}

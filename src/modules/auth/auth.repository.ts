import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';

/** Lookups that turn a credential into an active principal. */
export function createAuthRepository(db: Db) {
  return {
    findActiveUser: (id: number) =>
      db.selectFrom('users').select(['id', 'is_superuser']).where('id', '=', id).where('is_active', '=', true).executeTakeFirst(),

    findActiveSubUser: (id: number) =>
      db
        .selectFrom('sub_users')
        .innerJoin('users', 'users.id', 'sub_users.owner_id')
        .select(['sub_users.id', 'sub_users.owner_id'])
        .where('sub_users.id', '=', id)
        .where('sub_users.is_active', '=', true)
        .where('users.is_active', '=', true)
        .executeTakeFirst(),

    findApiKey: (hash: string) =>
      db
        .selectFrom('api_keys')
        .innerJoin('users', 'users.id', 'api_keys.owner_id')
        .select(['api_keys.id', 'api_keys.owner_id', 'api_keys.last_used_at', 'users.is_superuser'])
        .where('api_keys.key_hash', '=', hash)
        .where('users.is_active', '=', true)
        .executeTakeFirst(),

    touchApiKey: (id: number) =>
      db.updateTable('api_keys').set({ last_used_at: sql<Date>`now()` }).where('id', '=', id).execute(),
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;

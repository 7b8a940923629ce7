import { sql } from 'kysely';
import { columns as pick } from '../../db/columns.ts';
import type { Db } from '../../db/connection.ts';

const columns = ['id', 'owner_id', 'username', 'full_name', 'email', 'is_active', 'created_at'] as const;

/** All SQL of the sub-users module. Every function takes a db or a transaction handle. */
export const subUsersRepository = {
  list: (db: Db, ownerId: number, skip: number, limit: number) =>
    db.selectFrom('sub_users').select(columns).where('owner_id', '=', ownerId).orderBy('id', 'desc').offset(skip).limit(limit).execute(),

  count: async (db: Db, ownerId: number) => {
    const row = await db
      .selectFrom('sub_users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_id', '=', ownerId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  find: (db: Db, id: number) => db.selectFrom('sub_users').select(columns).where('id', '=', id).executeTakeFirst(),

  insert: (db: Db, ownerId: number, values: { username: string; email: string | null; full_name: string | null; hashed_password: string }) =>
    db
      .insertInto('sub_users')
      .values({ owner_id: ownerId, ...pick(values, ['username', 'email', 'full_name', 'hashed_password']) })
      .returning(columns)
      .executeTakeFirstOrThrow(),

  /** The username and owner are fixed; these are what an update may change. */
  update: (db: Db, id: number, values: { email?: string | null; full_name?: string | null; hashed_password?: string; is_active?: boolean }) => {
    const patch = pick(values, ['email', 'full_name', 'hashed_password', 'is_active']);
    return Object.keys(patch).length === 0
      ? db.selectFrom('sub_users').select(columns).where('id', '=', id).executeTakeFirstOrThrow()
      : db.updateTable('sub_users').set(patch).where('id', '=', id).returning(columns).executeTakeFirstOrThrow();
  },

  delete: (db: Db, id: number) => db.deleteFrom('sub_users').where('id', '=', id).execute(),

  /**
   * Which of the names (lower-cased) already identify someone at login: an account
   * e-mail, a sub-user's username or a sub-user's e-mail. The sub-user being edited
   * does not clash with itself.
   */
  takenNames: async (db: Db, names: string[], exceptSubUserId?: number) => {
    if (names.length === 0) return new Set<string>();
    const accounts = await db.selectFrom('users').select(sql<string>`lower(email)`.as('name')).where(sql`lower(email)`, 'in', names).execute();
    let subs = db
      .selectFrom('sub_users')
      .select([sql<string>`lower(username)`.as('username'), sql<string | null>`lower(email)`.as('email')])
      .where((eb) => eb.or([eb(sql`lower(username)`, 'in', names), eb(sql`lower(email)`, 'in', names)]));
    if (exceptSubUserId !== undefined) subs = subs.where('id', '<>', exceptSubUserId);
    const taken = new Set(accounts.map((r) => r.name));
    for (const row of await subs.execute()) {
      taken.add(row.username);
      if (row.email) taken.add(row.email);
    }
    return taken;
  },

  /** Granted campaigns of the given sub-users, ascending by campaign id. */
  grantsOf: (db: Db, subUserIds: number[]) =>
    subUserIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('campaign_sub_users as g')
          .innerJoin('campaigns as c', 'c.id', 'g.campaign_id')
          .select(['g.sub_user_id', 'c.id', 'c.title'])
          .where('g.sub_user_id', 'in', subUserIds)
          .orderBy('c.id', 'asc')
          .execute(),

  campaignsByIds: (db: Db, ids: number[]) =>
    ids.length === 0 ? Promise.resolve([]) : db.selectFrom('campaigns').select(['id', 'owner_id']).where('id', 'in', ids).execute(),

  replaceGrants: async (trx: Db, subUserId: number, campaignIds: number[]) => {
    await trx.deleteFrom('campaign_sub_users').where('sub_user_id', '=', subUserId).execute();
    if (campaignIds.length > 0) {
      await trx
        .insertInto('campaign_sub_users')
        .values(campaignIds.map((campaign_id) => ({ campaign_id, sub_user_id: subUserId })))
        .execute();
    }
  },

  /** Whether the grant is new (false when it was already held). */
  addGrant: async (db: Db, subUserId: number, campaignId: number) => {
    const rows = await db
      .insertInto('campaign_sub_users')
      .values({ campaign_id: campaignId, sub_user_id: subUserId })
      .onConflict((oc) => oc.columns(['campaign_id', 'sub_user_id']).doNothing())
      .returning('campaign_id')
      .execute();
    return rows.length > 0;
  },

  /** Whether a grant was there to revoke. */
  removeGrant: async (db: Db, subUserId: number, campaignId: number) => {
    const result = await db.deleteFrom('campaign_sub_users').where('sub_user_id', '=', subUserId).where('campaign_id', '=', campaignId).executeTakeFirst();
    return result.numDeletedRows > 0n;
  },
};

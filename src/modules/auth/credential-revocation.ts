import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';

/**
 * Ends a login's tokens and dashboard sessions for good: raises its credential_version (a bearer
 * token carries the version it was issued under, a session row records it, and both are refused
 * once it is no longer current: auth.repository.ts) and deletes its session rows. Reactivating the
 * login later does not raise the version back, so nothing ended here returns.
 *
 * Called, in the transaction of the change, for a new password and for a deactivation. `keepSession`
 * (a session token's digest) is the dashboard session that made a change to its own login's
 * password: it moves to the new version and stays signed in, while every other session and every
 * bearer token of the login ends. A bearer token cannot be moved (it is signed, not stored), so a
 * password changed over a bearer token ends that token too. Answers the login's new version.
 */
export async function revokeCredentials(trx: Db, login: { kind: 'user' | 'sub_user'; id: number }, keepSession?: string): Promise<number> {
  const table = login.kind === 'user' ? 'users' : 'sub_users';
  const owner = login.kind === 'user' ? 'user_id' : 'sub_user_id';
  const { credential_version: version } = await trx
    .updateTable(table)
    .set({ credential_version: sql<number>`credential_version + 1` })
    .where('id', '=', login.id)
    .returning('credential_version')
    .executeTakeFirstOrThrow();
  let others = trx.deleteFrom('dashboard_sessions').where(owner, '=', login.id);
  if (keepSession !== undefined) {
    others = others.where('token_digest', '<>', keepSession);
    await trx.updateTable('dashboard_sessions').set({ credential_version: version }).where(owner, '=', login.id).where('token_digest', '=', keepSession).execute();
  }
  await others.execute();
  return version;
}

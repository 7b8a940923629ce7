import type { Db } from '../../db/connection.ts';
import { conflict } from '../../http/errors.ts';
import { hashPassword } from '../../shared/credentials.ts';
import { startSession } from '../auth/session.service.ts';
import { anyAccountExists, insertFirstOwner } from './setup.repository.ts';

export const OWNER_EXISTS = 'The service already has an account: sign in with it (an owner creates further accounts and sub-users)';

export async function readSetup(db: Db) {
  return { needs_owner: !(await anyAccountExists(db)) };
}

/**
 * The first run's owner: created only while no account exists (setup.repository.ts holds the
 * race), then signed in like POST /session. The password is hashed before the lock is taken,
 * so a slow argon2 never holds other browsers waiting.
 */
export async function createOwner(input: { db: Db; email: string; password: string; full_name?: string | null | undefined; lifetimeSeconds: number }) {
  // Cheap refusal first: on a running service every request after the first ends here.
  if (await anyAccountExists(input.db)) throw conflict(OWNER_EXISTS);
  const owner = await insertFirstOwner(input.db, {
    email: input.email.trim(),
    hashed_password: await hashPassword(input.password),
    full_name: input.full_name?.trim() || null,
  });
  if (!owner) throw conflict(OWNER_EXISTS);
  return startSession(input.db, { kind: 'user', id: owner.id, created_at: owner.created_at, credential_version: owner.credential_version }, input.lifetimeSeconds);
}

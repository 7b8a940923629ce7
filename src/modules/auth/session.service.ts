import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import { digestToken } from '../../shared/credentials.ts';
import { describeCaller } from '../users/users.service.ts';
import { newSessionToken } from './dashboard-session.ts';
import { checkPassword, type LoginSubject } from './login.service.ts';
import type { Principal } from './principal.ts';
import { createSessionRepository } from './session.repository.ts';

/** Who a dashboard session belongs to, as POST and GET /session answer it. */
export interface SessionPrincipal {
  kind: 'user' | 'sub_user';
  id: number;
  email: string | null;
  username: string | null;
  full_name: string | null;
  owner_id: number;
  is_superuser: boolean;
}

/**
 * Signs in with the login's name and password rules and throttle (login.service.ts), and
 * starts a session: the token goes to the cookie, its digest to the database. A refusal is the
 * login's message, as 401 (the login route answers 400, as the OAuth 2.0 password flow does).
 */
export async function signIn(input: {
  db: Db;
  username: string;
  password: string;
  address: string;
  maxFailures: number;
  now: Date;
  lifetimeSeconds: number;
}): Promise<{ token: string; who: SessionPrincipal }> {
  const checked = await checkPassword(input);
  if ('refused' in checked) throw new HttpError(401, checked.refused);
  return startSession(input.db, checked.subject, input.lifetimeSeconds);
}

/**
 * A new dashboard session for a login already proven (a sign-in, the first owner just created, a
 * password just changed): the token goes to the cookie, its digest to the database.
 */
export async function startSession(db: Db, subject: LoginSubject, lifetimeSeconds: number): Promise<{ token: string; who: SessionPrincipal }> {
  const sessions = createSessionRepository(db);
  await sessions.deleteExpired();
  const token = newSessionToken();
  await sessions.insert({ digest: digestToken(token), subject, lifetimeSeconds });
  return { token, who: await describeSession(db, principalOf(subject)) };
}

/** Ends the session the token names (nothing when it names none). */
export async function signOut(db: Db, token: string | undefined): Promise<void> {
  if (token) await createSessionRepository(db).deleteByDigest(digestToken(token));
}

export async function describeSession(db: Db, principal: Principal): Promise<SessionPrincipal> {
  const caller = await describeCaller(db, principal);
  return {
    kind: caller.kind,
    id: caller.id,
    email: caller.email,
    username: 'username' in caller ? caller.username : null,
    full_name: caller.full_name,
    owner_id: caller.owner_id,
    is_superuser: caller.is_superuser,
  };
}

// Only describeSession reads it: is_superuser and the owner come from the database there.
const principalOf = (subject: LoginSubject): Principal =>
  subject.kind === 'user'
    ? { kind: 'user', userId: subject.id, ownerId: subject.id, isSuperuser: false }
    : { kind: 'sub_user', subUserId: subject.id, ownerId: 0 };

import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../shared/errors.ts';

/**
 * Failed-login throttle. Password guessing is limited twice over, per window:
 *  - one login name from one address: `maxFailures` failures (guessing one password);
 *  - one address over all names: ten times as many (spraying one password over many).
 * Keyed by name *and* address, so a stranger cannot lock an account's owner out from
 * elsewhere. While a key is over its limit the login answers 429 with Retry-After and
 * the password is not checked at all (no argon2 time spent on a guesser). A successful
 * login clears its name's count. Counts live in the database, shared by all processes.
 */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
const SPRAY_FACTOR = 10;

interface Key {
  key: string;
  limit: number;
}

const keysFor = (name: string, address: string, maxFailures: number): Key[] => [
  { key: `ip:${address} name:${name}`, limit: maxFailures }, // an address has no space: unambiguous
  { key: `ip:${address}`, limit: maxFailures * SPRAY_FACTOR },
];

/** Throws 429 when a key of this attempt has used up its failures in the current window. */
export async function assertLoginAllowed(db: Db, name: string, address: string, maxFailures: number, now: Date): Promise<void> {
  if (maxFailures <= 0) return;
  const keys = keysFor(name, address, maxFailures);
  const since = new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS);
  const rows = await db
    .selectFrom('login_failures')
    .select(['key', 'failures', 'first_at'])
    .where('key', 'in', keys.map((k) => k.key))
    .where('first_at', '>', since)
    .execute();
  let retryAt = 0;
  for (const row of rows) {
    const limit = keys.find((k) => k.key === row.key)!.limit;
    if (row.failures >= limit) retryAt = Math.max(retryAt, row.first_at.getTime() + LOGIN_FAILURE_WINDOW_MS);
  }
  if (retryAt > 0) {
    const seconds = Math.max(1, Math.ceil((retryAt - now.getTime()) / 1000));
    throw new HttpError(429, `Too many failed logins; try again in ${seconds} seconds`, { 'retry-after': String(seconds) });
  }
}

/** Counts one failure on each key (a key whose window has passed starts again at 1). */
export async function recordLoginFailure(db: Db, name: string, address: string, maxFailures: number, now: Date): Promise<void> {
  if (maxFailures <= 0) return;
  const since = new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS);
  // Sorted keys: two processes counting the same pair lock the rows in the same order.
  const keys = keysFor(name, address, maxFailures).map((k) => k.key).sort();
  for (const key of keys) {
    await sql`
      INSERT INTO login_failures (key, failures, first_at) VALUES (${key}, 1, ${now})
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN login_failures.first_at > ${since} THEN login_failures.failures + 1 ELSE 1 END,
        first_at = CASE WHEN login_failures.first_at > ${since} THEN login_failures.first_at ELSE ${now} END`.execute(db);
  }
  await db.deleteFrom('login_failures').where('first_at', '<=', since).execute();
}

/** A successful login forgets its name's failures from that address. */
export async function clearLoginFailures(db: Db, name: string, address: string, maxFailures: number): Promise<void> {
  if (maxFailures <= 0) return;
  await db.deleteFrom('login_failures').where('key', '=', keysFor(name, address, maxFailures)[0]!.key).execute();
}

import ipaddr from 'ipaddr.js';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';

/**
 * Failed-login throttle. Password guessing is limited twice over, per window:
 *  - one login name from one address: `maxFailures` failures (guessing one password);
 *  - one address over all names: ten times as many (spraying one password over many).
 * Keyed by name *and* address, so a stranger cannot lock an account's owner out from
 * elsewhere. An IPv6 client is keyed by its /64, the block one client usually holds.
 *
 * Every attempt is counted *before* its password is checked (an atomic upsert per key),
 * so attempts sent in parallel cannot all pass a check that none of them has counted yet.
 * An attempt over a limit answers 429 with Retry-After without checking the password
 * (no argon2 time spent on a guesser). A successful login clears its name's count and
 * gives the address its attempt back. Counts live in the database, shared by processes.
 */
const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
const SPRAY_FACTOR = 10;

/** The address a client is counted under: IPv4 as is (also when mapped into IPv6), IPv6 by its /64. */
function clientNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}

interface Keys {
  name: string;
  address: string;
}
const keysFor = (name: string, address: string): Keys => {
  const network = clientNetwork(address);
  return { name: `ip:${network} name:${name}`, address: `ip:${network}` }; // a network has no space: unambiguous
};

/** Counts this attempt on both keys; throws 429 (handing the attempt back) when one is past its limit. */
export async function takeLoginAttempt(db: Db, name: string, address: string, maxFailures: number, now: Date): Promise<void> {
  if (maxFailures <= 0) return;
  const keys = keysFor(name, address);
  const since = new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS);
  // One key per statement: each count is atomic on its own, and no statement ever holds one
  // key's row lock while waiting for another's (two keys in one statement could deadlock).
  const counted: string[] = [];
  let retryAt = 0;
  for (const [key, limit] of [[keys.address, maxFailures * SPRAY_FACTOR], [keys.name, maxFailures]] as const) {
    const { rows } = await sql<{ failures: number; first_at: Date }>`
      INSERT INTO login_failures AS f (key, failures, first_at) VALUES (${key}, 1, ${now})
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN f.first_at > ${since} THEN f.failures + 1 ELSE 1 END,
        first_at = CASE WHEN f.first_at > ${since} THEN f.first_at ELSE ${now} END
      RETURNING failures, first_at`.execute(db);
    counted.push(key);
    const row = rows[0]!;
    if (row.failures > limit) {
      retryAt = new Date(row.first_at).getTime() + LOGIN_FAILURE_WINDOW_MS;
      break;
    }
  }
  if (retryAt > 0) {
    // A refused attempt checked no password: it must not use up the address's budget
    // (retrying one locked name would lock out everyone behind the same address).
    await handBack(db, counted);
    const seconds = Math.max(1, Math.ceil((retryAt - now.getTime()) / 1000));
    throw new HttpError(429, `Too many failed logins; try again in ${seconds} seconds`, { 'retry-after': String(seconds) });
  }
  // Expired rows go; rows another attempt is counting on are left for a later sweep.
  await sql`DELETE FROM login_failures WHERE key IN (
    SELECT key FROM login_failures WHERE first_at <= ${since} FOR UPDATE SKIP LOCKED)`.execute(db);
}

/**
 * Settles a counted attempt once its password was checked: a wrong password stays
 * counted; a right one clears its name's count and hands the address its attempt back;
 * anything else (an inactive user, an error) hands both back.
 */
export async function settleLoginAttempt(db: Db, name: string, address: string, maxFailures: number, outcome: 'success' | 'wrong' | 'other'): Promise<void> {
  if (maxFailures <= 0 || outcome === 'wrong') return;
  const keys = keysFor(name, address);
  if (outcome === 'success') {
    await db.deleteFrom('login_failures').where('key', '=', keys.name).execute();
    await handBack(db, [keys.address]);
  } else {
    await handBack(db, [keys.address, keys.name]);
  }
}

async function handBack(db: Db, keys: string[]): Promise<void> {
  for (const key of keys) {
    await db.updateTable('login_failures').set({ failures: sql`failures - 1` }).where('key', '=', key).where('failures', '>', 0).execute();
  }
}

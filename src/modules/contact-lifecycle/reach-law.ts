import { erasedMarkSql } from '../../shared/erased-number.ts';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Db } from '../../db/connection.ts';

/**
 * The law's checks per number, in the caller's transaction (the dialing round's claim today):
 * - the do-not-call list, read after the contacts and campaigns are locked (a suppression added
 *   since the contact was queued is seen; the dialer's start-calls.ts looks again just before dialling);
 * - the frequency caps, counted under a lock per (account, number) taken in (account, number)
 *   order, the order the dialer inserts calls in (dialer/outbound/call-rows.ts), so two processes calling one number
 *   from different campaigns count each other's calls.
 */
type Trx = Transaction<Database>;

/** The account's frequency caps (compliance settings: maxPerDay, maxPerWeek). */
export interface FrequencyCaps {
  maxPerDay: number;
  maxPerWeek: number;
}

export interface NumberKey {
  ownerId: number;
  phone: string;
}

/** Unexpired suppressions of these numbers, by `owner|phone`. */
export async function suppressionsOf(trx: Trx | Db, keys: NumberKey[], now: Date): Promise<Map<string, { id: number; reason: string | null }>> {
  const found = new Map<string, { id: number; reason: string | null }>();
  if (keys.length === 0) return found;
  // A number erased on a person's request is on the list as its salted mark (privacy/erasure): it still blocks.
  const { rows } = await sql<{ id: number; owner_id: number; phone: string; reason: string | null }>`
    SELECT s.id, s.owner_id, u.p AS phone, s.reason
    FROM unnest(${keys.map((k) => k.ownerId)}::bigint[], ${keys.map((k) => k.phone)}::text[]) AS u(o, p)
    LEFT JOIN privacy_settings ps ON ps.owner_id = u.o AND ps.erasure_salt IS NOT NULL
    JOIN suppressions s ON s.owner_id = u.o
      AND s.phone_number = ANY(ARRAY[u.p, CASE WHEN ps.erasure_salt IS NOT NULL THEN ${erasedMarkSql(sql`ps.erasure_salt`, sql`u.p`)} END])
    WHERE s.expires_at IS NULL OR s.expires_at > ${now}::timestamptz`.execute(trx);
  for (const r of rows) found.set(`${r.owner_id}|${r.phone}`, { id: Number(r.id), reason: r.reason });
  return found;
}

export const suppressedReason = (s: { id: number; reason: string | null }) =>
  `suppressed: ${s.reason ?? 'on the do-not-call list'} (do-not-call list, suppression ${s.id})`;

/** The advisory lock class of a number's frequency cap (concurrency-locks.ts uses 7301 for campaigns). */
const NUMBER_LOCK_CLASS = 7_302;

/**
 * For each number: null when another outbound call may start now, else the first moment the
 * caps allow one (a 24-hour and a 7-day rolling window over the account's outbound and test calls).
 */
export async function capVerdicts(trx: Trx, keys: NumberKey[], settings: Map<number, FrequencyCaps>, now: Date): Promise<Map<string, Date | null>> {
  const verdicts = new Map<string, Date | null>();
  if (keys.length === 0) return verdicts;
  const unique = [...new Map(keys.map((k) => [`${k.ownerId}|${k.phone}`, k])).values()]
    .sort((a, b) => a.ownerId - b.ownerId || (a.phone < b.phone ? -1 : a.phone > b.phone ? 1 : 0));
  await sql`
    SELECT pg_advisory_xact_lock(${NUMBER_LOCK_CLASS}, hashtext(u.o::text || '|' || u.p))
    FROM unnest(${unique.map((k) => k.ownerId)}::bigint[], ${unique.map((k) => k.phone)}::text[]) WITH ORDINALITY AS u(o, p, n)
    ORDER BY u.n`.execute(trx);
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000);
  // Outbound calls and test calls (call_type null: the SIP route test) both reach the person; each
  // arm has its own partial index (calls_outbound_number_idx, calls_test_number_idx).
  const owners = unique.map((k) => k.ownerId);
  const phones = unique.map((k) => k.phone);
  const { rows } = await sql<{ owner_id: number; to_number: string; starts: Date[] }>`
    SELECT c.owner_id, c.to_number, array_agg(c.start_time ORDER BY c.start_time) AS starts
    FROM (
      SELECT k.owner_id, k.to_number, k.start_time
      FROM calls k JOIN unnest(${owners}::bigint[], ${phones}::text[]) AS u(o, p) ON k.owner_id = u.o AND k.to_number = u.p
      WHERE k.call_type = 'outbound' AND k.start_time > ${weekAgo}::timestamptz
      UNION ALL
      SELECT k.owner_id, k.to_number, k.start_time
      FROM calls k JOIN unnest(${owners}::bigint[], ${phones}::text[]) AS u(o, p) ON k.owner_id = u.o AND k.to_number = u.p
      WHERE k.call_type IS NULL AND k.start_time > ${weekAgo}::timestamptz
    ) c
    GROUP BY c.owner_id, c.to_number`.execute(trx);
  const startsOf = new Map(rows.map((r) => [`${r.owner_id}|${r.to_number}`, r.starts.map((d) => new Date(d).getTime())]));
  for (const key of unique) {
    const id = `${key.ownerId}|${key.phone}`;
    const starts = startsOf.get(id) ?? [];
    const s = settings.get(key.ownerId)!;
    verdicts.set(id, firstAllowed(starts, now.getTime(), [[86_400_000, s.maxPerDay], [7 * 86_400_000, s.maxPerWeek]]));
  }
  return verdicts;
}

/**
 * The first instant >= now at which fewer than `max` of `starts` (ascending) fall within `span`
 * before it, for every [span, max]; null when that is now.
 */
export function firstAllowed(starts: number[], now: number, caps: [number, number][]): Date | null {
  let at = now;
  for (const [span, max] of caps) {
    const inWindow = starts.filter((t) => t > now - span);
    // The oldest calls must leave the window until only max - 1 remain in it.
    if (inWindow.length >= max) at = Math.max(at, inWindow[inWindow.length - max]! + span);
  }
  return at === now ? null : new Date(at);
}

import { sql, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Deps } from '../../../deps.ts';
import { routeKey, type Route } from '../../../voice/registry.ts';

/**
 * A vendor's own limits, per route (a provider and its credentials): calls in progress at once
 * and calls started per second. Invariant: whatever the number of processes, the calls in
 * progress on a route never exceed its cap, and starts follow its token bucket (burst of one
 * second's worth): both are counted and taken under the route's row lock in voice_route_pacing,
 * held until the round commits its call rows.
 *
 * Lock order, within a dialling round: after the campaign locks (concurrency-locks.ts), the
 * route rows FOR UPDATE in route order, then the call rows (call-rows.ts). Nothing else locks
 * route rows but a vendor's refusal (blockRoute), which holds no other lock.
 */

type Trx = Transaction<Database>;

export interface RoutePacing {
  maxConcurrent: number;
  callsPerSecond: number;
}

export const isPaced = (p: RoutePacing | undefined): p is RoutePacing => !!p && (p.maxConcurrent > 0 || p.callsPerSecond > 0);

/** The SQL expression of a campaign's route key, as routeKey writes it (a = the campaign's assistant). */
export const campaignRouteSql = (defaultProvider: string) =>
  sql<string>`coalesce(a.provider, ${defaultProvider}::text) || coalesce('#' || a.voice_connection_id::text, '')`;

/** Calls in progress per route key. Calls written before routes existed count on the default provider's. */
async function liveByRoute(trx: Trx | Deps['db'], defaultProvider: string, keys: string[]): Promise<Map<string, number>> {
  const { rows } = await sql<{ route: string; n: number }>`
    SELECT coalesce(provider, ${defaultProvider}::text) || coalesce('#' || voice_connection_id::text, '') AS route, count(*)::int AS n
    FROM calls WHERE status = 'in progress' GROUP BY 1`.execute(trx);
  return new Map(rows.filter((r) => keys.includes(r.route)).map((r) => [r.route, r.n]));
}

/**
 * Before the claim, without locks: how many calls each paced route could start now, so the
 * claim takes no more contacts than the vendor will accept (a route at its cap would otherwise
 * have its contacts claimed and put back every round). Rechecked under the lock by takeSlots.
 */
export async function estimateRouteRooms(trx: Trx, deps: Deps, routes: Map<string, RoutePacing>, now: Date): Promise<Map<string, number>> {
  const keys = [...routes.keys()];
  if (keys.length === 0) return new Map();
  const live = await liveByRoute(trx, deps.config.VOICE_PROVIDER, keys);
  const buckets = await trx.selectFrom('voice_route_pacing').selectAll().where('route', 'in', keys).execute();
  const bucketOf = new Map(buckets.map((b) => [b.route, b]));
  const rooms = new Map<string, number>();
  for (const [key, pacing] of routes) {
    rooms.set(key, roomOf(pacing, live.get(key) ?? 0, bucketOf.get(key), now).room);
  }
  return rooms;
}

type Bucket = { tokens: number; refreshed_at: Date; blocked_until: Date | null };

/** The room of a route, and the bucket after a refill up to now. */
function roomOf(pacing: RoutePacing, live: number, bucket: Bucket | undefined, now: Date): { room: number; tokens: number } {
  if (bucket?.blocked_until && bucket.blocked_until > now) return { room: 0, tokens: 0 };
  let room = pacing.maxConcurrent > 0 ? Math.max(0, pacing.maxConcurrent - live) : Number.MAX_SAFE_INTEGER;
  let tokens = Number.MAX_SAFE_INTEGER;
  if (pacing.callsPerSecond > 0) {
    const capacity = Math.max(1, pacing.callsPerSecond);
    const elapsed = bucket ? Math.max(0, (now.getTime() - bucket.refreshed_at.getTime()) / 1000) : Infinity;
    tokens = Math.min(capacity, (bucket?.tokens ?? capacity) + elapsed * pacing.callsPerSecond);
    room = Math.min(room, Math.floor(tokens));
  }
  return { room, tokens };
}

/**
 * Under the route's row lock: how many of `wanted` calls may start on the route now, taken
 * from its bucket. When none may, `retryAt` says when to look again.
 */
export async function takeRouteSlots(trx: Trx, deps: Deps, route: Route, pacing: RoutePacing, wanted: number, now: Date): Promise<{ granted: number; retryAt: Date }> {
  const key = routeKey(route);
  await sql`INSERT INTO voice_route_pacing (route, tokens, refreshed_at) VALUES (${key}, ${Math.max(1, pacing.callsPerSecond)}, ${now}) ON CONFLICT DO NOTHING`.execute(trx);
  const bucket = await trx.selectFrom('voice_route_pacing').selectAll().where('route', '=', key).forUpdate().executeTakeFirstOrThrow();
  const live = (await liveByRoute(trx, deps.config.VOICE_PROVIDER, [key])).get(key) ?? 0;
  const { room, tokens } = roomOf(pacing, live, bucket, now);
  const granted = Math.max(0, Math.min(wanted, room));
  if (pacing.callsPerSecond > 0) {
    await trx.updateTable('voice_route_pacing').set({ tokens: Math.max(0, tokens - granted), refreshed_at: now }).where('route', '=', key).execute();
  }
  const blocked = bucket.blocked_until && bucket.blocked_until > now ? bucket.blocked_until.getTime() : 0;
  // A slot frees when a call ends (which wakes the dialer); a token comes after 1/cps seconds.
  const perToken = pacing.callsPerSecond > 0 ? 1000 / pacing.callsPerSecond : 0;
  return { granted, retryAt: new Date(Math.max(blocked, now.getTime() + Math.max(perToken, 1000))) };
}

/** A vendor refused for its limits: no process starts calls on the route until `until`. */
export async function blockRoute(db: Deps['db'], route: Route, until: Date): Promise<void> {
  await sql`
    INSERT INTO voice_route_pacing (route, tokens, refreshed_at, blocked_until) VALUES (${routeKey(route)}, 0, ${until}, ${until})
    ON CONFLICT (route) DO UPDATE SET tokens = 0, refreshed_at = greatest(voice_route_pacing.refreshed_at, EXCLUDED.refreshed_at),
      blocked_until = greatest(voice_route_pacing.blocked_until, EXCLUDED.blocked_until)`.execute(db);
}

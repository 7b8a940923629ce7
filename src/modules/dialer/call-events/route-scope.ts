import { sql } from 'kysely';
import type { Db } from '../../../db/connection.ts';
import type { Deps } from '../../../deps.ts';
import type { CallEvent } from '../../../voice/provider.ts';
import type { Route } from '../../../voice/registry.ts';

/**
 * An event only touches calls of its own route. A route is a provider and the credentials it
 * uses (the service's environment credentials, or one voice connection); whoever holds a
 * route's credentials can sign its events, and an account chooses its own connection's secret.
 * So a request verified with one route's credentials may name only calls placed (or answered)
 * through that same route: `calls.provider` + `calls.voice_connection_id`, written with the call
 * row. A call of another route is treated exactly as an unknown call.
 *
 * A call without a recorded provider (written before migration 0013 and not backfilled by 0020)
 * went out through VOICE_PROVIDER with the environment's credentials, the only route there was.
 */
export function onRoute(alias: string, route: Route, defaultProvider: string) {
  return sql`coalesce(${sql.ref(`${alias}.provider`)}, ${defaultProvider}) = ${route.provider}
    AND ${sql.ref(`${alias}.voice_connection_id`)} IS NOT DISTINCT FROM ${route.connectionId}::bigint`;
}

/** Whether our call `callId` exists and belongs to `route`. */
export async function callIsOnRoute(deps: Pick<Deps, 'db' | 'config'>, callId: number, route: Route): Promise<boolean> {
  const { rows } = await sql<{ id: number }>`SELECT k.id FROM calls k WHERE k.id = ${callId} AND ${onRoute('k', route, deps.config.VOICE_PROVIDER)}`.execute(deps.db);
  return rows.length > 0;
}

/** Events that change what is stored (an end, a recording); progress events change nothing. */
const isStored = (e: CallEvent) => e.type === 'ended' || e.type === 'recording';

/**
 * Keeps the events whose call belongs to `route`, each naming its call by our id (an event that
 * named it only by the vendor's id gets it here, from this route's calls alone); `foreign` counts
 * those dropped (another route's call, or no call at all), which the caller answers as unknown
 * calls. Progress events pass untouched: they store nothing, and cost no query.
 */
export async function scopeEventsToRoute(db: Db, defaultProvider: string, route: Route, events: CallEvent[]): Promise<{ events: CallEvent[]; foreign: number }> {
  const stored = events.filter(isStored);
  if (stored.length === 0) return { events, foreign: 0 };
  const ids = [...new Set(stored.flatMap((e) => (e.callId !== null ? [e.callId] : [])))];
  const providerIds = [...new Set(stored.flatMap((e) => (e.callId === null && e.providerCallId ? [e.providerCallId] : [])))];
  const here = onRoute('k', route, defaultProvider);
  const { rows } = await sql<{ id: number; p: string | null }>`
    SELECT k.id, NULL::text AS p FROM calls k WHERE k.id = ANY(${ids}::bigint[]) AND ${here}
    UNION ALL
    SELECT k.id, r.provider_call_id FROM call_provider_refs r JOIN calls k ON k.id = r.call_id WHERE r.provider_call_id = ANY(${providerIds}::text[]) AND ${here}
    UNION ALL
    SELECT k.id, k.external_session_id FROM calls k WHERE k.external_session_id = ANY(${providerIds}::text[]) AND ${here}`.execute(db);
  const known = new Set(rows.filter((r) => r.p === null).map((r) => Number(r.id)));
  const byProviderId = new Map(rows.filter((r) => r.p !== null).map((r) => [r.p!, Number(r.id)]));
  const kept: CallEvent[] = [];
  for (const e of events) {
    if (!isStored(e)) kept.push(e);
    else if (e.callId !== null ? known.has(e.callId) : byProviderId.has(e.providerCallId)) kept.push(e.callId !== null ? e : { ...e, callId: byProviderId.get(e.providerCallId)! });
  }
  return { events: kept, foreign: events.length - kept.length };
}

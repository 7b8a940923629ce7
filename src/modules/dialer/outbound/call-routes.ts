import { sql, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Deps } from '../../../deps.ts';
import { providerFor, routeKey, VoiceNotConfiguredError, type Route } from '../../../voice/registry.ts';
import type { ClaimedContact } from './due-contacts-claim.ts';
import type { DialCampaign } from './concurrency-locks.ts';
import { isPaced, takeRouteSlots, type RoutePacing } from './vendor-pacing.ts';
import type { NextAction } from '../../contact-lifecycle/next-action.ts';
import { reachableCampaignSql } from '../../contact-lifecycle/reachable-campaign.ts';

/**
 * Which vendor route a campaign's calls take: its assistant's provider and voice connection,
 * else VOICE_PROVIDER with the environment's credentials.
 */
export function routeOf(campaign: Pick<DialCampaign, 'route_provider' | 'route_connection_id'>, defaultProvider: string): Route {
  return { provider: campaign.route_provider ?? defaultProvider, connectionId: campaign.route_provider ? campaign.route_connection_id : null };
}

/** Where a route's calls wait when its provider cannot be used (settings removed, connection deleted). */
const UNCONFIGURED_RETRY_MS = 5 * 60_000;

/**
 * The pacing of every route a dialable campaign uses, read before the claim. `allPaced`: every
 * such route has a cap, so the claim may take no more than their rooms together.
 */
export async function pacedRoutes(deps: Deps): Promise<{ pacing: Map<string, RoutePacing>; allPaced: boolean }> {
  const { rows } = await sql<{ provider: string | null; connection_id: number | null }>`
    SELECT DISTINCT a.provider, a.voice_connection_id AS connection_id
    FROM campaigns cp LEFT JOIN assistants a ON a.id = cp.assistant_id AND a.owner_id = cp.owner_id
    WHERE ${reachableCampaignSql('cp')}`.execute(deps.db);
  const pacing = new Map<string, RoutePacing>();
  let allPaced = rows.length > 0;
  for (const row of rows) {
    const route = routeOf({ route_provider: row.provider, route_connection_id: row.connection_id }, deps.config.VOICE_PROVIDER);
    const provider = await providerFor(deps, route).catch(() => null);
    if (provider && isPaced(provider.pacing)) pacing.set(routeKey(route), provider.pacing);
    else allPaced = false;
  }
  return { pacing, allPaced };
}

export type Chosen = { contact: ClaimedContact; campaign: DialCampaign; route: Route };

/**
 * Under the routes' row locks (in route order), keeps the contacts each route may start now;
 * the others stay due, later (a route at its cap, out of tokens, blocked after a vendor's
 * refusal, or whose provider cannot be used).
 */
export async function paceByRoute(trx: Transaction<Database>, deps: Deps, chosen: Chosen[], now: Date) {
  const byRoute = new Map<string, Chosen[]>();
  for (const c of chosen) byRoute.set(routeKey(c.route), [...(byRoute.get(routeKey(c.route)) ?? []), c]);
  const kept: Chosen[] = [];
  const deferred: { id: number; at: Date; next: NextAction }[] = [];
  for (const key of [...byRoute.keys()].sort()) {
    const group = byRoute.get(key)!;
    const route = group[0]!.route;
    let pacing: RoutePacing | undefined;
    try {
      pacing = (await providerFor(deps, route)).pacing;
    } catch (error) {
      if (!(error instanceof VoiceNotConfiguredError)) throw error;
      const at = new Date(now.getTime() + UNCONFIGURED_RETRY_MS);
      for (const c of group) deferred.push({ id: c.contact.id, at, next: { code: 'vendor_pacing', reason: `voice provider unavailable: ${error.message}` } });
      continue;
    }
    if (!isPaced(pacing)) {
      kept.push(...group);
      continue;
    }
    const { granted, retryAt } = await takeRouteSlots(trx, deps, route, pacing, group.length, now);
    kept.push(...group.slice(0, granted));
    for (const c of group.slice(granted)) deferred.push({ id: c.contact.id, at: retryAt, next: { code: 'vendor_pacing', reason: `waiting for a free ${route.provider} line (vendor pacing)` } });
  }
  return { kept, deferred };
}

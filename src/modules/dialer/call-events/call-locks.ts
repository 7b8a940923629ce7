import { sql, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Route } from '../../../voice/registry.ts';
import type { LockedCall } from './call-finish.ts';
import { onRoute } from './route-scope.ts';

/**
 * The locks an event batch (or a call the dialer ends itself) takes first. Invariants: a
 * call ends once (its row is locked and must still be `in progress`), and an event id is
 * applied once per route (the voice_events primary key on the route key and the id; a repeat
 * is a duplicate).
 *
 * Lock order, in one transaction (call-events.service.ts, then call-finish.ts):
 *   1. the calls the events name, FOR UPDATE in id order;
 *   2. the event ids, inserted into voice_events;
 *   3. the contacts of the calls that end, FOR UPDATE in id order (call-finish.ts);
 *   4. the campaign rows written (pause, usage), in id order (call-finish.ts);
 *   5. the webhook delivery rows inserted (webhooks/enqueue-deliveries.ts).
 * Two batches, or a batch and the dialer saving provider ids (FOR KEY SHARE of calls in id
 * order, provider-call-ids.ts), therefore never wait on each other in a cycle.
 */

type Trx = Transaction<Database>;

/**
 * Locks every call the events name, in id order (so two batches, or a batch and the
 * dialer, never deadlock). Events that carry only the provider's id are first resolved
 * to our ids, so the lock itself is a primary-key lookup. With `scope`, only calls of that
 * route are found (an event touches calls of its own route only: route-scope.ts).
 */
export async function lockCalls(trx: Trx, ids: number[], providerIds: string[], scope?: { route: Route; defaultProvider: string }) {
  const here = scope ? onRoute('k', scope.route, scope.defaultProvider) : sql`true`;
  const byProviderId = new Map<string, LockedCall>();
  const resolved = new Map<number, string>();
  if (providerIds.length > 0) {
    const { rows } = await sql<{ id: number; p: string }>`
      SELECT r.call_id AS id, r.provider_call_id AS p FROM call_provider_refs r JOIN calls k ON k.id = r.call_id WHERE r.provider_call_id = ANY(${providerIds}::text[]) AND ${here}
      UNION SELECT k.id, k.external_session_id FROM calls k WHERE k.external_session_id = ANY(${providerIds}::text[]) AND ${here}`.execute(trx);
    for (const r of rows) resolved.set(r.id, r.p);
  }
  const all = [...new Set([...ids, ...resolved.keys()])].sort((a, b) => a - b);
  const { rows } = await sql<LockedCall>`
    SELECT k.id, k.status, k.contact_id, k.campaign_id, k.call_type, k.start_time, k.provider, k.call_data->'operator' AS operator FROM calls k
    WHERE k.id = ANY(${all}::bigint[]) AND ${here} ORDER BY k.id FOR UPDATE`.execute(trx);
  // pg parses the jsonb; PGlite's wire answers may leave it text.
  for (const r of rows) if (typeof r.operator === 'string') r.operator = JSON.parse(r.operator) as LockedCall['operator'];
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const [id, p] of resolved) if (byId.has(id)) byProviderId.set(p, byId.get(id)!);
  return { byId, byProviderId };
}

/** Stores the event ids under their route key (voice_events.provider: `vapi`, `vapi#3`); returns those not seen before. */
export async function storeEventIds(trx: Trx, route: string, rows: { eventId: string; callId: number; type: string }[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const { rows: inserted } = await sql<{ event_id: string }>`
    INSERT INTO voice_events (provider, event_id, call_id, event_type)
    SELECT ${route}, e, c, t FROM unnest(${rows.map((r) => r.eventId)}::text[], ${rows.map((r) => r.callId)}::bigint[], ${rows.map((r) => r.type)}::text[]) AS u(e, c, t)
    ON CONFLICT DO NOTHING RETURNING event_id`.execute(trx);
  return new Set(inserted.map((r) => r.event_id));
}

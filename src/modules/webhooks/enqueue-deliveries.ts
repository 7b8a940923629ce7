import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** A transcript counts when call_data.transcript is a non-empty list or a non-blank text. */
export const HAS_TRANSCRIPT = sql<boolean>`(
  CASE jsonb_typeof(c.call_data -> 'transcript')
    WHEN 'array' THEN jsonb_array_length(c.call_data -> 'transcript') > 0
    WHEN 'string' THEN length(btrim(c.call_data ->> 'transcript')) > 0
    ELSE false
  END)`;

/**
 * Called by the dialer in the same transaction that moves a call to a terminal
 * status: writes one delivery row per matching webhook integration, so a crash can
 * neither lose nor double a send. Filters (docs/webhooks.md): the integration covers the
 * call's campaign, only-interested needs action_status interested, a non-empty status
 * list must contain the call's status. A call without a transcript gets a 'skipped'
 * row with the reason, so the log explains why nothing was sent. The partial unique
 * index makes a second call for the same call a no-op. Takes a whole batch of ended
 * calls at once (the dialer ends calls in batches).
 */
export async function enqueueWebhookDeliveries(trx: Transaction<Database>, callIds: number | number[]): Promise<void> {
  const ids = Array.isArray(callIds) ? callIds : [callIds];
  if (ids.length === 0) return;
  await sql`
    INSERT INTO webhook_deliveries (integration_id, owner_id, call_id, kind, status, reason, finished_at)
    SELECT i.id, i.owner_id, c.id, 'call',
           CASE WHEN ${HAS_TRANSCRIPT} THEN 'pending' ELSE 'skipped' END,
           CASE WHEN ${HAS_TRANSCRIPT} THEN NULL ELSE 'the call has no transcript' END,
           CASE WHEN ${HAS_TRANSCRIPT} THEN NULL ELSE now() END
    FROM calls c
    JOIN webhook_integration_campaigns ic ON ic.campaign_id = c.campaign_id
    JOIN webhook_integrations i ON i.id = ic.integration_id AND i.owner_id = c.owner_id
    WHERE c.id = ANY(${ids}::bigint[])
      AND c.status NOT IN ('new', 'in progress')
      AND i.is_active
      AND (NOT i.only_interested OR c.action_status = 'interested')
      AND (cardinality(i.call_statuses) = 0 OR c.status = ANY (i.call_statuses))
    ON CONFLICT (integration_id, call_id) WHERE kind = 'call' DO NOTHING
  `.execute(trx);
}

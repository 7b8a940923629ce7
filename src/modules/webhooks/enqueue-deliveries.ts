import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** A transcript counts when call_data.transcript is a non-empty list or a non-blank text. */
export const HAS_TRANSCRIPT = sql<boolean>`(
  CASE jsonb_typeof(c.call_data -> 'transcript')
    WHEN 'array' THEN jsonb_array_length(c.call_data -> 'transcript') > 0
    WHEN 'string' THEN length(btrim(c.call_data ->> 'transcript')) > 0
    ELSE false
  END)`;

/** Why a delivery was skipped (webhook_deliveries.skipped_by, migration 0027): the filter or rule that stopped it. */
export const SKIPPED_BY = ['only_interested', 'call_statuses', 'no_transcript'] as const;
export type SkippedBy = (typeof SKIPPED_BY)[number];

/**
 * Called by the dialer in the same transaction that moves a call to a terminal status: writes
 * one delivery row per active webhook integration covering the call's campaign, so a crash can
 * neither lose nor double a send. A call the integration's filters do not pass (docs/webhooks.md:
 * only-interested needs action_status interested; a non-empty status list must contain the call's
 * status), or one without a transcript, gets a 'skipped' row naming the filter (skipped_by) and
 * saying why (reason), so the log and the call page explain why nothing was sent. An inactive
 * integration writes nothing: it is switched off, not filtering.
 *
 * The partial unique index makes a second call for the same call a no-op, except that a row a
 * filter skipped is decided again: an outcome that arrives after the end (Retell's call_analyzed
 * follows call_ended) may now pass only-interested, and the row becomes pending. A row already
 * pending, sent or failed never changes. Takes a whole batch of ended calls at once.
 */
export async function enqueueWebhookDeliveries(trx: Transaction<Database>, callIds: number | number[]): Promise<void> {
  const ids = Array.isArray(callIds) ? callIds : [callIds];
  if (ids.length === 0) return;
  await sql`
    INSERT INTO webhook_deliveries (integration_id, owner_id, call_id, kind, status, skipped_by, reason, finished_at)
    SELECT i.id, i.owner_id, c.id, 'call',
           CASE WHEN v.skipped_by IS NULL THEN 'pending' ELSE 'skipped' END,
           v.skipped_by,
           CASE v.skipped_by
             WHEN 'only_interested' THEN 'only interested calls are sent; this call''s outcome was ' || coalesce(c.action_status, 'none')
             WHEN 'call_statuses' THEN 'only calls with the status ' || array_to_string(i.call_statuses, ', ') || ' are sent; this call''s status was ' || c.status
             WHEN 'no_transcript' THEN 'the call has no transcript'
           END,
           CASE WHEN v.skipped_by IS NULL THEN NULL ELSE now() END
    FROM calls c
    JOIN webhook_integration_campaigns ic ON ic.campaign_id = c.campaign_id
    JOIN webhook_integrations i ON i.id = ic.integration_id AND i.owner_id = c.owner_id
    CROSS JOIN LATERAL (SELECT CASE
      WHEN i.only_interested AND c.action_status IS DISTINCT FROM 'interested' THEN 'only_interested'
      WHEN cardinality(i.call_statuses) > 0 AND NOT (c.status = ANY (i.call_statuses)) THEN 'call_statuses'
      WHEN NOT ${HAS_TRANSCRIPT} THEN 'no_transcript'
    END AS skipped_by) v
    WHERE c.id = ANY(${ids}::bigint[])
      AND c.status NOT IN ('new', 'in progress')
      -- A test call (call_type null, the route test) reached the operator, not a contact: never sent.
      AND c.call_type IS NOT NULL
      AND i.is_active
    ON CONFLICT (integration_id, call_id) WHERE kind = 'call' DO UPDATE
      SET status = EXCLUDED.status, skipped_by = EXCLUDED.skipped_by, reason = EXCLUDED.reason, finished_at = EXCLUDED.finished_at
      WHERE webhook_deliveries.skipped_by IN ('only_interested', 'call_statuses')
        AND EXCLUDED.skipped_by IS DISTINCT FROM webhook_deliveries.skipped_by
  `.execute(trx);
}

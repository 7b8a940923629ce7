import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { WebhookIntegrationRow } from '../../db/tables/webhooks.ts';
import type { DeliveryOutcome } from './deliveries.repository.ts';
import { failedOutcome, sendPayload, targetOf, type WebhookRuntime } from './delivery.service.ts';

/**
 * The campaign-paused event (docs/webhooks.md, "Campaign paused"): an integration with
 * `send_campaign_events` is told when one of its campaigns pauses itself because too many of
 * its calls failed (modules/breaker). The payload is fixed and written with the delivery row,
 * in the transaction that pauses the campaign, so a crash neither loses nor doubles it and a
 * redelivery sends the same facts; one row per integration and pause (the unique index).
 * Signed and logged like the post-call webhook; the post-call filters (only_interested,
 * call_statuses) do not apply.
 */
export const CAMPAIGN_PAUSED_EVENT = 'campaign.paused';

/** One pending delivery per integration of each trip's campaign that asks, in one statement. */
export async function enqueueCampaignPausedDeliveries(trx: Transaction<Database>, tripIds: number[]): Promise<void> {
  if (tripIds.length === 0) return;
  await sql`
    INSERT INTO webhook_deliveries (integration_id, owner_id, call_id, breaker_trip_id, kind, status, payload)
    SELECT i.id, i.owner_id, NULL, t.id, 'campaign', 'pending', json_build_object(
             'event', ${CAMPAIGN_PAUSED_EVENT}::text,
             'campaign', json_build_object('id', c.id, 'title', c.title, 'is_paused', true),
             'paused_by', json_build_object('reason', t.reason, 'failures', t.failures, 'attempts', t.attempts, 'window_seconds', t.window_seconds,
                                            'failure_rate_threshold', t.failure_rate_threshold, 'min_attempts', t.min_attempts,
                                            'at', to_char(t.tripped_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
      FROM campaign_breaker_trips t
      JOIN campaigns c ON c.id = t.campaign_id
      JOIN webhook_integration_campaigns ic ON ic.campaign_id = t.campaign_id
      JOIN webhook_integrations i ON i.id = ic.integration_id AND i.owner_id = t.owner_id
     WHERE t.id = ANY(${tripIds}::bigint[]) AND i.is_active AND i.send_campaign_events
     ORDER BY i.id, t.id
    ON CONFLICT (integration_id, breaker_trip_id) WHERE kind = 'campaign' DO NOTHING`.execute(trx);
}

/** The Standard Webhooks id of the event: stable per integration and pause, a redelivery keeps it. */
export const campaignWebhookId = (integrationId: number, tripId: number) => `msg_${integrationId}_campaign_${tripId}`;

/** No call and no contact: the URL's placeholders of both are empty. */
const NO_CALL = {
  contact: { id: null, phone_number: null, contact_data: {} },
  call: { id: null, from_number: null, to_number: null, status: '', action_status: null, call_duration: null, start_time: null, end_time: null, record_url: null },
};

/** Sends one campaign event, its payload as written. Never throws: a failure becomes the outcome's reason. */
export async function processCampaignDelivery(rt: WebhookRuntime, job: { deliveryId: number; integration: WebhookIntegrationRow; tripId: number; payload: Record<string, unknown> }): Promise<DeliveryOutcome> {
  const { integration } = job;
  const outcome = failedOutcome(job.deliveryId, integration);
  try {
    const { url, refused } = targetOf(integration, NO_CALL);
    outcome.request_url = url;
    if (refused) return { ...outcome, payload: job.payload, reason: refused };
    const sent = await sendPayload(rt, { integration, url, payload: job.payload, webhookId: campaignWebhookId(integration.id, job.tripId), outcome });
    rt.metrics?.webhookDelivered(sent.status, sent.duration_ms);
    return sent;
  } catch (error) {
    return { ...outcome, payload: job.payload, reason: `internal error: ${(error as Error).message}` };
  }
}

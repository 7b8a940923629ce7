import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { WebhookIntegrationRow } from '../../db/tables/webhooks.ts';
import type { DeliveryOutcome } from './deliveries.repository.ts';
import { TEXT_EVENT_JSON, type TextEventSnapshot } from './text-event-snapshot.ts';
import { failedOutcome, sendPayload, targetOf, type WebhookRuntime } from './delivery.service.ts';

/**
 * The inbound-text event (docs/webhooks.md, "Inbound texts"): an integration with
 * `send_inbound_texts` is told of each text a contact sends to one of its campaigns, once. The
 * payload is fixed, the text as the Messages API shows it with its contact and campaign: no
 * extraction (a reply is a line, not a conversation to summarise), and the post-call filters
 * (only_interested, call_statuses) do not apply. Signed and logged like the post-call webhook.
 */
export const TEXT_EVENT = 'text.received';

/** The snapshot of one text, for a redelivery (the worker's claim reads it in its own statement). */
export async function loadTextEvent(db: Kysely<Database>, messageId: number): Promise<TextEventSnapshot | null> {
  const { rows } = await sql<{ text: TextEventSnapshot | null }>`
    SELECT ${TEXT_EVENT_JSON} AS text FROM messages m
      LEFT JOIN contacts mc ON mc.id = m.contact_id LEFT JOIN campaigns mcp ON mcp.id = m.campaign_id
     WHERE m.id = ${messageId}`.execute(db);
  return rows[0]?.text ?? null;
}

/** Written in the transaction that stores the inbound text: one pending delivery per integration that asks. */
export async function enqueueTextDeliveries(trx: Transaction<Database>, messageId: number): Promise<void> {
  await sql`
    INSERT INTO webhook_deliveries (integration_id, owner_id, call_id, message_id, kind, status)
    SELECT i.id, i.owner_id, NULL, m.id, 'text', 'pending'
      FROM messages m
      JOIN webhook_integration_campaigns ic ON ic.campaign_id = m.campaign_id
      JOIN webhook_integrations i ON i.id = ic.integration_id AND i.owner_id = m.owner_id
     WHERE m.id = ${messageId} AND m.direction = 'inbound' AND i.is_active AND i.send_inbound_texts
    ON CONFLICT (integration_id, message_id) WHERE kind = 'text' DO NOTHING`.execute(trx);
}

export function textEventPayload(t: TextEventSnapshot): Record<string, unknown> {
  return {
    event: TEXT_EVENT,
    message: {
      id: t.id, message: t.body, user_id: t.owner_id, campaign_id: t.campaign_id, contact_id: t.contact_id, call_id: t.call_id,
      role_id: t.role_id, source: t.source, create_datetime: new Date(t.created_at).toISOString(),
      message_data: { direction: 'inbound', status: t.status, from_number: t.from_number, to_number: t.to_number, provider: t.provider, provider_message_id: t.provider_message_id },
    },
    contact: { id: t.contact_id, phone_number: t.contact_phone, contact_data: t.contact_data ?? {} },
    campaign: { id: t.campaign_id, title: t.campaign_title },
  };
}

/** The Standard Webhooks id of the event: stable per integration and text. */
export const textWebhookId = (integrationId: number, messageId: number) => `msg_${integrationId}_text_${messageId}`;

/** Sends one text event. Never throws: a failure becomes the outcome's reason. */
export async function processTextDelivery(rt: WebhookRuntime, job: { deliveryId: number; integration: WebhookIntegrationRow; text: TextEventSnapshot }): Promise<DeliveryOutcome> {
  const { integration, text } = job;
  const outcome = failedOutcome(job.deliveryId, integration);
  try {
    // The URL's placeholders: the contact's are the text's contact; a call's are empty (a text has none).
    const ctx = {
      contact: { id: text.contact_id, phone_number: text.contact_phone, contact_data: text.contact_data ?? {} },
      call: { id: null, from_number: null, to_number: null, status: '', action_status: null, call_duration: null, start_time: null, end_time: null, record_url: null },
    };
    const { url, refused } = targetOf(integration, ctx);
    outcome.request_url = url;
    if (refused) return { ...outcome, reason: refused };
    const sent = await sendPayload(rt, { integration, url, payload: textEventPayload(text), webhookId: textWebhookId(integration.id, text.id), outcome });
    rt.metrics?.webhookDelivered(sent.status, sent.duration_ms);
    return sent;
  } catch (error) {
    return { ...outcome, reason: `internal error: ${(error as Error).message}` };
  }
}

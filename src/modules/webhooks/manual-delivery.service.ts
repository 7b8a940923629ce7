import type { Db } from '../../db/connection.ts';
import type { WebhookIntegrationRow } from '../../db/tables/webhooks.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import type { Principal } from '../auth/principal.ts';
import { completeDeliveries, findDelivery, insertManualDelivery, loadCalls, type CallSnapshot } from './deliveries.repository.ts';
import { processDelivery, transcriptOf, webhookIdFor, type WebhookRuntime } from './delivery.service.ts';
import { loadTextEvent, processTextDelivery } from './text-event.ts';
import { processCampaignDelivery } from './campaign-event.ts';
import { ownerOnly, requireIntegration, toDeliveryResponse } from './webhooks.service.ts';

const API_CLAIM = 'api';

/** A made-up finished call for trying an integration before any real call exists. */
export function syntheticCall(now: Date): CallSnapshot {
  const end = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const start = new Date(end.getTime() - 95_000);
  return {
    id: null, status: 'finished', action_status: 'interested', action_status_reason: 'wants a demo', call_ended_by: 'AI', call_ended_by_reason: null,
    from_number: '+12025550100', to_number: '+12025550123',
    call_duration: 95, start_time: start, end_time: end, call_type: 'outbound', record_url: 'https://example.com/recordings/sample.mp3',
    contact_id: null, contact_phone: '+12025550123',
    contact_data: { name: 'Jane Sample', email: 'jane.sample@example.com' },
    call_data: {
      transcript: [
        { role: 'assistant', text: 'Hello Jane, this is Alex from Example Co. Are you interested in a free demo?' },
        { role: 'user', text: 'Yes, I am interested.' },
        { role: 'assistant', text: 'Great. What date suits you, and what e-mail should we use?' },
        { role: 'user', text: 'March 14 2030 works, write to jane.sample@example.com' },
      ],
    },
  };
}

async function runNow(rt: WebhookRuntime, integration: WebhookIntegrationRow, input: { kind: 'test' | 'redeliver'; call: CallSnapshot; callId: number | null; redeliveryOf: number | null; payload: Record<string, unknown> | null }) {
  const row = await insertManualDelivery(rt.db, {
    integrationId: integration.id, ownerId: integration.owner_id, callId: input.callId, kind: input.kind, redeliveryOf: input.redeliveryOf, claimedBy: API_CLAIM,
  });
  // A redelivery carries the original message id so receivers can de-duplicate.
  const webhookId = webhookIdFor(input.kind, integration.id, input.callId, input.kind === 'redeliver' && input.callId === null ? input.redeliveryOf! : row.id);
  const outcome = await processDelivery(rt, { deliveryId: row.id, webhookId, integration, call: input.call, payload: input.payload, waitForRecording: false });
  await completeDeliveries(rt.db, API_CLAIM, [outcome]);
  return (await findDelivery(rt.db, row.id))!;
}

/** POST /{id}/test: a sample payload from one of the caller's calls, or a synthetic call, sent now. Owner only. */
export async function sendTest(input: { rt: WebhookRuntime; db: Db; principal: Principal; integrationId: number; callId: number | null }) {
  ownerOnly(input.principal);
  const integration = await requireIntegration(input.db, input.principal, input.integrationId);
  let call = syntheticCall(input.rt.now());
  if (input.callId !== null) {
    const found = (await loadCalls(input.db, [input.callId])).get(input.callId);
    if (!found) throw notFound('Call');
    const owner = await input.db.selectFrom('calls').select('owner_id').where('id', '=', input.callId).executeTakeFirstOrThrow();
    if (owner.owner_id !== input.principal.ownerId) throw forbidden();
    call = found;
  }
  return toDeliveryResponse(await runNow(input.rt, integration, { kind: 'test', call, callId: input.callId, redeliveryOf: null, payload: null }));
}

/** POST /{id}/deliveries/{delivery_id}/redeliver: one more send on the user's explicit request. Owner only. */
export async function redeliver(input: { rt: WebhookRuntime; db: Db; principal: Principal; integrationId: number; deliveryId: number }) {
  ownerOnly(input.principal);
  const integration = await requireIntegration(input.db, input.principal, input.integrationId);
  const original = await findDelivery(input.db, input.deliveryId);
  if (!original || original.integration_id !== integration.id) throw notFound('Delivery');
  if (original.status === 'pending') throw conflict('The delivery is still pending');
  if (original.kind === 'text' || (original.kind === 'redeliver' && original.message_id !== null)) return toDeliveryResponse(await redeliverText(input.rt, integration, original));
  if (original.breaker_trip_id !== null) return toDeliveryResponse(await redeliverCampaignEvent(input.rt, integration, original));
  let call = syntheticCall(input.rt.now());
  if (original.call_id !== null) {
    const found = (await loadCalls(input.db, [original.call_id])).get(original.call_id);
    if (!found) throw notFound('Call');
    call = found;
  } else if (original.kind === 'call') {
    throw conflict('The call of this delivery no longer exists');
  }
  const payload = (original.payload as Record<string, unknown> | null) ?? null;
  if (!payload && transcriptOf(call.call_data).length === 0) throw conflict('The call has no transcript, so there is nothing to send');
  return toDeliveryResponse(await runNow(input.rt, integration, { kind: 'redeliver', call, callId: original.call_id, redeliveryOf: original.id, payload }));
}

/** An inbound-text event again: built from the text as it is now, with the same webhook id, so receivers can de-duplicate. */
async function redeliverText(rt: WebhookRuntime, integration: WebhookIntegrationRow, original: { id: number; message_id: number | null }) {
  const text = original.message_id === null ? null : await loadTextEvent(rt.db, original.message_id);
  if (!text) throw conflict('The text of this delivery no longer exists');
  const row = await insertManualDelivery(rt.db, {
    integrationId: integration.id, ownerId: integration.owner_id, callId: null, messageId: text.id, kind: 'redeliver', redeliveryOf: original.id, claimedBy: API_CLAIM,
  });
  await completeDeliveries(rt.db, API_CLAIM, [await processTextDelivery(rt, { deliveryId: row.id, integration, text })]);
  return (await findDelivery(rt.db, row.id))!;
}

/** A campaign-paused event again: the payload as first written (the facts of that pause), with the same webhook id. */
async function redeliverCampaignEvent(rt: WebhookRuntime, integration: WebhookIntegrationRow, original: { id: number; breaker_trip_id: number | null; payload: unknown }) {
  const payload = original.payload as Record<string, unknown> | null;
  if (original.breaker_trip_id === null || !payload) throw conflict('The campaign event of this delivery no longer exists');
  const row = await insertManualDelivery(rt.db, {
    integrationId: integration.id, ownerId: integration.owner_id, callId: null, breakerTripId: original.breaker_trip_id, kind: 'redeliver', redeliveryOf: original.id, claimedBy: API_CLAIM,
  });
  await completeDeliveries(rt.db, API_CLAIM, [await processCampaignDelivery(rt, { deliveryId: row.id, integration, tripId: original.breaker_trip_id, payload })]);
  return (await findDelivery(rt.db, row.id))!;
}

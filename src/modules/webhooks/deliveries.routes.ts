import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { Detail, ErrorResponses, Id, IdParams, Limit, Nullable, Skip } from '../../shared/schemas.ts';
import { listDeliveries } from './deliveries.repository.ts';
import type { WebhookRuntime } from './delivery.service.ts';
import { redeliver, sendTest } from './manual-delivery.service.ts';
import { Delivery, DeliveryList, DeliveryStatus } from './webhooks.schemas.ts';
import { ownerOnly, requireIntegration } from './webhooks.service.ts';

const tags = ['webhooks'];

/** The delivery log and the two explicit sends (test, redeliver). Account holder only: payloads carry contact data. */
export async function deliveriesRoutes(app: App, options: { runtime: WebhookRuntime }) {
  const { db } = app.deps;
  const { runtime } = options;

  app.get(
    '/:id/deliveries',
    {
      schema: {
        tags,
        summary: 'Delivery log of an integration',
        description:
          'Newest first. status: pending (waiting or being sent), sent, failed (with reason: HTTP status, redirect, error field, timeout, SSRF refusal, extraction failure), ' +
          'skipped (the call had no transcript). Failed deliveries are never retried automatically; use redeliver. ' +
          'A sent delivery lists in missing_required the required fields it had to send as null.',
        params: IdParams,
        querystring: Type.Object({ status: Type.Optional(Type.Array(DeliveryStatus)), call_id: Type.Optional(Id), skip: Skip, limit: Limit(100) }),
        response: { 200: DeliveryList, ...ErrorResponses },
      },
    },
    async (request) => {
      ownerOnly(request.principal);
      const integration = await requireIntegration(db, request.principal, request.params.id);
      const { status, call_id, skip, limit } = request.query;
      const { rows, count } = await listDeliveries(db, { integrationId: integration.id, ...(status ? { status } : {}), ...(call_id !== undefined ? { callId: call_id } : {}), skip, limit });
      return { data: rows.map((r) => ({ ...r, payload: r.payload as Record<string, unknown> | null, status: r.status as 'sent' })), count };
    },
  );

  app.post(
    '/:id/test',
    {
      schema: {
        tags,
        summary: 'Send a test request now',
        description:
          'Builds the payload from one of the caller\'s calls (call_id) or, without call_id, from a synthetic finished call, sends it at once ' +
          'and answers the recorded delivery (kind test). Filters do not apply and the recording wait is skipped. The webhook-id header is msg_test_<delivery id>.',
        params: IdParams,
        body: Type.Object({ call_id: Type.Optional(Nullable(Id)) }),
        response: { 200: Delivery, ...ErrorResponses },
      },
      // An empty POST is the common way to ask for a synthetic test.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      ownerOnly(request.principal);
      const integration = await requireIntegration(db, request.principal, request.params.id);
      const row = await sendTest({ rt: runtime, db, principal: request.principal, integration, callId: request.body.call_id ?? null });
      return { ...row, payload: row.payload as Record<string, unknown> | null, status: row.status as 'sent' };
    },
  );

  app.post(
    '/:id/deliveries/:delivery_id/redeliver',
    {
      schema: {
        tags,
        summary: 'Send a delivery again (explicit user request)',
        description:
          'A new delivery row (kind redeliver) is written and sent now with the payload of the original (built afresh if the original never got one), ' +
          'to the integration\'s current URL and credentials. It carries the original webhook-id so receivers can de-duplicate. 409 while the original is pending.',
        params: Type.Object({ id: Id, delivery_id: Id }),
        response: { 200: Delivery, ...ErrorResponses, 409: Detail },
      },
    },
    async (request) => {
      ownerOnly(request.principal);
      const integration = await requireIntegration(db, request.principal, request.params.id);
      const row = await redeliver({ rt: runtime, db, integration, deliveryId: request.params.delivery_id });
      return { ...row, payload: row.payload as Record<string, unknown> | null, status: row.status as 'sent' };
    },
  );
}

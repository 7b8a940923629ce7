import type { FastifyRequest } from 'fastify';
import type { App } from '../../app.ts';
import type { WebhookRuntime } from './delivery.service.ts';
import { redeliver, sendTest } from './manual-delivery.service.ts';
import * as ops from './webhooks.operations.ts';
import { deliveryLog } from './webhooks.service.ts';

// An empty POST is the common way to ask for a synthetic test.
const bodyOptional = async (request: FastifyRequest) => {
  request.body ??= {};
};

/** The delivery log and the two explicit sends (test, redeliver). Account holder only: payloads carry contact data. */
export async function deliveriesRoutes(app: App, options: { runtime: WebhookRuntime }) {
  const { db } = app.deps;
  const { runtime } = options;

  app.get('/:id/deliveries', { schema: ops.ListDeliveries }, async (request) =>
    deliveryLog({ db, principal: request.principal, id: request.params.id, query: request.query, statementTimeoutMs: app.deps.config.API_STATEMENT_TIMEOUT_MS }));
  app.post('/:id/test', { schema: ops.SendTestRequest, preValidation: bodyOptional }, async (request) =>
    sendTest({ rt: runtime, db, principal: request.principal, integrationId: request.params.id, callId: request.body.call_id ?? null }));
  app.post('/:id/deliveries/:delivery_id/redeliver', { schema: ops.Redeliver }, async (request) =>
    redeliver({ rt: runtime, db, principal: request.principal, integrationId: request.params.id, deliveryId: request.params.delivery_id }));
}

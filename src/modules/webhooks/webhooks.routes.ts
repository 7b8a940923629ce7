import type { App } from '../../app.ts';
import { deliveriesRoutes } from './deliveries.routes.ts';
import { createWebhookRuntime } from './webhooks.worker.ts';
import * as ops from './webhooks.operations.ts';
import {
  createIntegration,
  deleteIntegration,
  listIntegrationsPage,
  readIntegration,
  rotateSigningSecret,
  updateIntegration,
} from './webhooks.service.ts';

/** Post-call webhook integrations and their delivery log (mounted at /api/v1/integrations/webhooks; authenticated). */
export async function webhooksRoutes(app: App) {
  const { db, secrets } = app.deps;
  const targets = { allowPrivateNetworks: app.deps.config.WEBHOOK_ALLOW_PRIVATE_NETWORKS };
  // The API sends test and redelivery requests itself, through the same SSRF-guarded dispatcher as the worker.
  const runtime = createWebhookRuntime(app.deps);
  app.addHook('onClose', () => runtime.close());

  app.get('/', { schema: ops.ListWebhookIntegrations }, async (request) =>
    listIntegrationsPage({ db, secrets, principal: request.principal, skip: request.query.skip, limit: request.query.limit }));
  app.post('/', { schema: ops.CreateWebhookIntegration }, async (request) =>
    createIntegration({ db, secrets, principal: request.principal, body: request.body, request, targets }));
  app.get('/:id', { schema: ops.ReadWebhookIntegration }, async (request) =>
    readIntegration({ db, secrets, principal: request.principal, id: request.params.id }));
  app.put('/:id', { schema: ops.ChangeWebhookIntegration }, async (request) =>
    updateIntegration({ db, secrets, principal: request.principal, id: request.params.id, body: request.body, request, targets }));
  app.delete('/:id', { schema: ops.DeleteWebhookIntegration }, async (request) =>
    deleteIntegration({ db, principal: request.principal, id: request.params.id, request }));
  app.post('/:id/signing-secret', { schema: ops.RotateSigningSecret }, async (request) =>
    ({ signing_secret: await rotateSigningSecret({ db, secrets, principal: request.principal, id: request.params.id, request }) }));

  await app.register(deliveriesRoutes, { runtime });
}

import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { Detail, ErrorResponses, IdParams, Limit, Skip } from '../../shared/schemas.ts';
import { deliveriesRoutes } from './deliveries.routes.ts';
import { createWebhookRuntime } from './webhook.worker.ts';
import * as repo from './webhooks.repository.ts';
import { Integration, IntegrationCreate, IntegrationCreated, IntegrationList, IntegrationUpdate } from './webhooks.schemas.ts';
import { createIntegration, ownerOnly, requireIntegration, rotateSigningSecret, toResponse, updateIntegration } from './webhooks.service.ts';

const tags = ['webhooks'];

/** Post-call webhook integrations and their delivery log (mounted at /api/v1/integrations/webhooks; authenticated). */
export async function webhooksRoutes(app: App) {
  const { db } = app.deps;
  // The API sends test and redelivery requests itself, through the same SSRF-guarded dispatcher as the worker.
  const runtime = createWebhookRuntime(app.deps);
  app.addHook('onClose', () => runtime.close());

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'List webhook integrations',
        description: 'The account\'s integrations, newest first. Secrets are masked. A sub-user sees only integrations all of whose campaigns are granted to it (another is 403); only the account holder may change them.',
        querystring: Type.Object({ skip: Skip, limit: Limit(100) }),
        response: { 200: IntegrationList, ...ErrorResponses },
      },
    },
    async (request) => {
      const p = request.principal;
      const { rows, count } = await repo.listIntegrations(db, p.ownerId, request.query.skip, request.query.limit, p.kind === 'sub_user' ? p.subUserId : undefined);
      const campaigns = await repo.campaignIdsOf(db, rows.map((r) => r.id));
      return { data: rows.map((r) => toResponse(r, campaigns.get(r.id) ?? [], app.deps.secrets)), count };
    },
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create a post-call webhook integration',
        description:
          'Account holder only (sub-users get 403). Every campaign must be the caller\'s (404 unknown, 403 another account\'s). ' +
          'The answer carries signing_secret once; secrets (basic_password, bearer_token, api_key_value) are masked in every later answer, and stored sealed under the service\'s SECRET_KEY (AES-256-GCM). ' +
          'Private and loopback destinations are refused when sending (see allowed_hosts), and the refusal is recorded in the delivery log.',
        body: IntegrationCreate,
        response: { 200: IntegrationCreated, ...ErrorResponses },
      },
    },
    async (request) => createIntegration({ db, secrets: app.deps.secrets, principal: request.principal, body: request.body }),
  );

  app.get(
    '/:id',
    { schema: { tags, summary: 'Read a webhook integration', params: IdParams, response: { 200: Integration, ...ErrorResponses } } },
    async (request) => {
      const row = await requireIntegration(db, request.principal, request.params.id);
      return toResponse(row, (await repo.campaignIdsOf(db, [row.id])).get(row.id) ?? [], app.deps.secrets);
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Change a webhook integration',
        description: 'Only the settings in the body change; a secret left out keeps its value, null clears it. The whole result is validated again.',
        params: IdParams,
        body: IntegrationUpdate,
        response: { 200: Integration, ...ErrorResponses },
      },
    },
    async (request) => updateIntegration({ db, secrets: app.deps.secrets, principal: request.principal, id: request.params.id, body: request.body }),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Delete a webhook integration and its delivery log',
        params: IdParams,
        response: { 200: Type.Object({ message: Type.String() }), ...ErrorResponses, 409: Detail },
      },
    },
    async (request) => {
      ownerOnly(request.principal);
      const row = await requireIntegration(db, request.principal, request.params.id);
      await repo.deleteIntegration(db, row.id);
      return { message: 'Webhook integration deleted' };
    },
  );

  app.post(
    '/:id/signing-secret',
    {
      schema: {
        tags,
        summary: 'Rotate the signing secret',
        description:
          'Replaces the secret deliveries are signed with (Standard Webhooks) and answers the new one, once; the old one stops at once. ' +
          'Also the way back after SECRET_KEY changed, which leaves the stored secret unreadable. Owner only.',
        params: IdParams,
        response: { 200: Type.Object({ signing_secret: Type.String() }), ...ErrorResponses },
      },
    },
    async (request) => ({ signing_secret: await rotateSigningSecret({ db, secrets: app.deps.secrets, principal: request.principal, id: request.params.id }) }),
  );

  await app.register(deliveriesRoutes, { runtime });
}

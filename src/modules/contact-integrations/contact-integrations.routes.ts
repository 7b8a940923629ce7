import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { Detail, ErrorResponses, IdParams } from '../../shared/schemas.ts';
import { createContactIntegrationsRepository } from './contact-integrations.repository.ts';
import { Integration, IntegrationCreate, IntegrationUpdate, IntegrationWithToken } from './contact-integrations.schemas.ts';
import { createIntegration, ownerOf, present, regenerateToken, requireIntegration, updateIntegration } from './contact-integrations.service.ts';

const TAGS = ['contact-creation-integration'];
const OWNER_ONLY = 'Only the account holder manages integrations (a sub-user gets 403). Each campaign must be the account\'s (unknown: 404, another account\'s: 403).';

/** Managing contact-creation integrations (mounted at /api/v1/integrations/contact-creation; authenticated). */
export async function contactIntegrationsRoutes(app: App) {
  const { db } = app.deps;
  const repo = createContactIntegrationsRepository(db);

  app.get(
    '/',
    { schema: { tags: TAGS, summary: 'List contact-creation integrations', description: `Tokens are masked. ${OWNER_ONLY}`, response: { 200: Type.Array(Integration), 401: Detail, 403: Detail } } },
    async (request) => (await repo.listByOwner(ownerOf(request.principal))).map(present),
  );

  app.post(
    '/',
    {
      schema: {
        tags: TAGS,
        summary: 'Create a contact-creation integration',
        description: `Answers the integration with its token, shown this once (stored as a SHA-256 digest). Use it on
/api/v1/contact-creation-integration/create-contact as Authorization: Bearer <token>. ${OWNER_ONLY}`,
        body: IntegrationCreate,
        response: { 200: IntegrationWithToken, ...ErrorResponses },
      },
    },
    async (request) => createIntegration({ db, repo, principal: request.principal, body: request.body }),
  );

  app.get(
    '/:id',
    { schema: { tags: TAGS, summary: 'Read a contact-creation integration', params: IdParams, response: { 200: Integration, ...ErrorResponses } } },
    async (request) => present(await requireIntegration(repo, request.principal, request.params.id)),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Update a contact-creation integration',
        description: `Every field optional; campaign_ids replaces the list (the first is the default). The token is unchanged. ${OWNER_ONLY}`,
        params: IdParams,
        body: IntegrationUpdate,
        response: { 200: Integration, ...ErrorResponses },
      },
    },
    async (request) => updateIntegration({ db, repo, principal: request.principal, id: request.params.id, body: request.body }),
  );

  app.post(
    '/:id/regenerate-token',
    {
      schema: {
        tags: TAGS,
        summary: 'Replace the integration\'s token',
        description: 'Answers the new token, shown this once; the old token stops working at once.',
        params: IdParams,
        response: { 200: IntegrationWithToken, ...ErrorResponses },
      },
    },
    async (request) => regenerateToken({ db, repo, principal: request.principal, id: request.params.id }),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a contact-creation integration (revokes its token)',
        params: IdParams,
        response: { 200: Type.Object({ message: Type.String() }), ...ErrorResponses },
      },
    },
    async (request) => {
      const row = await requireIntegration(repo, request.principal, request.params.id);
      await repo.delete(row.id);
      return { message: 'Integration deleted' };
    },
  );
}

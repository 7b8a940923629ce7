import type { App } from '../../app.ts';
import { createContactIntegrationsRepository } from './contact-integrations.repository.ts';
import * as ops from './contact-integrations.operations.ts';
import {
  createIntegration,
  deleteIntegration,
  listIntegrations,
  readIntegration,
  regenerateToken,
  updateIntegration,
} from './contact-integrations.service.ts';

/** Managing contact-creation integrations (mounted at /api/v1/integrations/contact-creation; authenticated). */
export async function contactIntegrationsRoutes(app: App) {
  const { db } = app.deps;
  const repo = createContactIntegrationsRepository(db);

  app.get('/', { schema: ops.ListIntegrations }, async (request) =>
    listIntegrations(repo, request.principal));
  app.post('/', { schema: ops.CreateIntegration }, async (request) =>
    createIntegration({ db, repo, principal: request.principal, body: request.body }));
  app.get('/:id', { schema: ops.ReadIntegration }, async (request) =>
    readIntegration(repo, request.principal, request.params.id));
  app.put('/:id', { schema: ops.UpdateIntegration }, async (request) =>
    updateIntegration({ db, repo, principal: request.principal, id: request.params.id, body: request.body }));
  app.post('/:id/regenerate-token', { schema: ops.RegenerateToken }, async (request) =>
    regenerateToken({ db, repo, principal: request.principal, id: request.params.id }));
  app.delete('/:id', { schema: ops.DeleteIntegration }, async (request) =>
    deleteIntegration({ repo, principal: request.principal, id: request.params.id }));
}

import type { App } from '../../app.ts';
import * as ops from './assistants.operations.ts';
import { createAssistant, deleteAssistant, listAssistantsPage, readAssistant, updateAssistant } from './assistants.service.ts';

/** Assistants: who talks on a campaign's calls (mounted at /api/v1/assistants; authenticated). */
export async function assistantsRoutes(app: App) {
  const { db, config } = app.deps;
  const deps = { db, config };

  app.get('/', { schema: ops.ListAssistants }, async (request) =>
    listAssistantsPage({ ...deps, principal: request.principal, skip: request.query.skip, limit: request.query.limit }));
  app.post('/', { schema: ops.CreateAssistant }, async (request) =>
    createAssistant({ ...deps, principal: request.principal, body: request.body }));
  app.get('/:id', { schema: ops.ReadAssistant }, async (request) =>
    readAssistant({ ...deps, principal: request.principal, id: request.params.id }));
  app.put('/:id', { schema: ops.ChangeAssistant }, async (request) =>
    updateAssistant({ ...deps, principal: request.principal, id: request.params.id, body: request.body }));
  app.delete('/:id', { schema: ops.DeleteAssistant }, async (request) =>
    deleteAssistant({ db, principal: request.principal, id: request.params.id }));
}

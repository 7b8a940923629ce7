import type { App } from '../../app.ts';
import * as ops from './api-keys.operations.ts';
import { createApiKeyWithinCap, deleteApiKey, listApiKeys, ownerOf } from './api-keys.service.ts';

export async function apiKeysRoutes(app: App) {
  const { db } = app.deps;

  app.get('/', { schema: ops.ListApiKeys }, async (request) =>
    listApiKeys(db, ownerOf(request.principal)));
  app.post('/', { schema: ops.GenerateApiKey }, async (request) =>
    createApiKeyWithinCap(db, request.principal, request.body.name ?? null, request));
  app.delete('/:id', { schema: ops.DeleteApiKey }, async (request) =>
    deleteApiKey(db, request.principal, request.params.id, request));
}

import type { App } from '../../app.ts';
import * as ops from './voice-connections.operations.ts';
import {
  createVoiceConnection,
  deleteVoiceConnection,
  listVoiceConnectionsPage,
  readVoiceConnection,
  updateVoiceConnection,
} from './voice-connections.service.ts';

/** An account's own vendor credentials (mounted at /api/v1/voice-connections; authenticated). */
export async function voiceConnectionsRoutes(app: App) {
  const { db, secrets, config } = app.deps;
  const deps = { db, secrets, config };

  app.get('/', { schema: ops.ListVoiceConnections }, async (request) =>
    listVoiceConnectionsPage({ ...deps, principal: request.principal, skip: request.query.skip, limit: request.query.limit }));
  app.post('/', { schema: ops.CreateVoiceConnection }, async (request) =>
    createVoiceConnection({ ...deps, principal: request.principal, body: request.body }));
  app.get('/:id', { schema: ops.ReadVoiceConnection }, async (request) =>
    readVoiceConnection({ ...deps, principal: request.principal, id: request.params.id }));
  app.put('/:id', { schema: ops.ChangeVoiceConnection }, async (request) =>
    updateVoiceConnection({ ...deps, principal: request.principal, id: request.params.id, body: request.body }));
  app.delete('/:id', { schema: ops.DeleteVoiceConnection }, async (request) =>
    deleteVoiceConnection({ db, principal: request.principal, id: request.params.id }));
}

import type { App } from '../../app.ts';
import * as ops from './calls.operations.ts';
import * as controlOps from './call-controls.operations.ts';
import { endCall, transferCall, whisperToCall } from './call-controls.service.ts';
import { listCallsPage, requireCall } from './calls.service.ts';
import { simulatedRecording } from './simulated-recording.ts';
import { SIMULATED_RECORDING_PATH } from '../../voice/sim-recording-url.ts';

export async function callsRoutes(app: App) {
  const { db, config } = app.deps;
  const deps = app.deps;

  app.get('/', { schema: ops.ListCalls }, async (request) =>
    listCallsPage({ db, principal: request.principal, query: request.query, defaultCountry: config.DEFAULT_COUNTRY, statementTimeoutMs: config.API_STATEMENT_TIMEOUT_MS }));
  app.get('/:id', { schema: ops.ReadCall }, async (request) =>
    requireCall(db, request.principal, request.params.id));
  // An operator steering a call in progress (call-controls.service.ts).
  app.post('/:id/end', { schema: controlOps.EndCall }, async (request) =>
    endCall({ deps, principal: request.principal, callId: request.params.id, request }));
  app.post('/:id/transfer', { schema: controlOps.TransferCall }, async (request) =>
    transferCall({ deps, principal: request.principal, callId: request.params.id, request, phoneNumber: request.body.phone_number }));
  app.post('/:id/whisper', { schema: controlOps.WhisperToCall }, async (request) =>
    whisperToCall({ deps, principal: request.principal, callId: request.params.id, request, message: request.body.message }));
  app.get(SIMULATED_RECORDING_PATH, { schema: ops.ReadSimulatedRecording }, async (request, reply) => {
    const audio = await simulatedRecording(db, request.principal, request.params.id);
    // A Buffer is sent as it is; the type provider only knows the JSON answers of the schema.
    return reply.type('audio/wav').header('cache-control', 'private, max-age=3600').send(audio as never);
  });
}

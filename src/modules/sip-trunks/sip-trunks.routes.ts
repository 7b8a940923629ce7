import type { App } from '../../app.ts';
import * as ops from './sip-trunks.operations.ts';
import { createSipTrunk, deleteSipTrunk, listSipTrunksPage, readCampaignSipTrunk, readSipTrunk, updateCampaignSipTrunk, updateSipTrunk } from './sip-trunks.service.ts';

/** An account's SIP trunks (mounted at /api/v1/sip-trunks; authenticated). */
export async function sipTrunksRoutes(app: App) {
  const { db, secrets, config } = app.deps;
  const deps = { db, secrets, config };
  app.get('/', { schema: ops.ListSipTrunks }, async (request) => listSipTrunksPage({ ...deps, principal: request.principal, skip: request.query.skip, limit: request.query.limit }));
  app.post('/', { schema: ops.CreateSipTrunk }, async (request) => createSipTrunk({ ...deps, principal: request.principal, body: request.body, request }));
  app.get('/:id', { schema: ops.ReadSipTrunk }, async (request) => readSipTrunk({ ...deps, principal: request.principal, id: request.params.id }));
  app.put('/:id', { schema: ops.ChangeSipTrunk }, async (request) => updateSipTrunk({ ...deps, principal: request.principal, id: request.params.id, body: request.body, request }));
  app.delete('/:id', { schema: ops.DeleteSipTrunk }, async (request) => deleteSipTrunk({ db, principal: request.principal, id: request.params.id, request }));
}

/** GET/PUT /api/v1/campaigns/{id}/sip-trunk, registered under the campaigns prefix. */
export async function campaignSipTrunkRoutes(app: App) {
  const { db } = app.deps;
  app.get('/:id/sip-trunk', { schema: ops.ReadCampaignSipTrunk }, async (request) => readCampaignSipTrunk(db, request.principal, request.params.id));
  app.put('/:id/sip-trunk', { schema: ops.UpdateCampaignSipTrunk }, async (request) => updateCampaignSipTrunk(db, request.principal, request.params.id, request.body, request));
}

import type { App } from '../../app.ts';
import * as ops from './sub-users.operations.ts';
import {
  addGrant,
  createSubUser,
  deleteSubUser,
  getSubUser,
  listGrants,
  listSubUsers,
  removeGrant,
  replaceGrants,
  updateSubUser,
} from './sub-users.service.ts';

export async function subUsersRoutes(app: App) {
  const { db } = app.deps;

  app.get('/', { schema: ops.ListSubUsers }, async (request) =>
    listSubUsers({ db, principal: request.principal, ...request.query }));
  app.post('/', { schema: ops.CreateSubUser }, async (request) =>
    createSubUser({ db, principal: request.principal, body: request.body }));
  app.get('/:id', { schema: ops.ReadSubUser }, async (request) =>
    getSubUser({ db, principal: request.principal, id: request.params.id }));
  app.put('/:id', { schema: ops.UpdateSubUser }, async (request) =>
    updateSubUser({ db, principal: request.principal, id: request.params.id, body: request.body }));
  app.delete('/:id', { schema: ops.DeleteSubUser }, async (request) =>
    deleteSubUser({ db, principal: request.principal, id: request.params.id }));

  app.get('/:id/campaigns', { schema: ops.ListGrants }, async (request) =>
    listGrants({ db, principal: request.principal, id: request.params.id }));
  app.put('/:id/campaigns', { schema: ops.ReplaceGrants }, async (request) =>
    replaceGrants({ db, principal: request.principal, id: request.params.id, campaignIds: request.body.campaign_ids, request }));
  app.post('/:id/campaigns/:campaign_id', { schema: ops.GrantCampaign }, async (request) =>
    addGrant({ db, principal: request.principal, id: request.params.id, campaignId: request.params.campaign_id, request }));
  app.delete('/:id/campaigns/:campaign_id', { schema: ops.RevokeCampaign }, async (request) =>
    removeGrant({ db, principal: request.principal, id: request.params.id, campaignId: request.params.campaign_id, request }));
}

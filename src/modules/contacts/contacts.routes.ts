import type { App } from '../../app.ts';
import * as ops from './contacts.operations.ts';
import {
  createContact,
  deleteContact,
  listCampaignContactsPage,
  listContactsPage,
  requireContact,
  updateContact,
} from './contacts.service.ts';

export async function contactsRoutes(app: App) {
  const { db, config, clock } = app.deps;
  const defaultCountry = config.DEFAULT_COUNTRY;
  const statementTimeoutMs = config.API_STATEMENT_TIMEOUT_MS;

  app.get('/', { schema: ops.ListContacts }, async (request) =>
    listContactsPage({ db, principal: request.principal, query: request.query, campaignIds: request.query.campaign_id, defaultCountry, statementTimeoutMs }));
  app.post('/', { schema: ops.CreateContact }, async (request) =>
    createContact({ db, principal: request.principal, input: request.body, defaultCountry, dialerWake: app.deps.dialerWake }));
  app.get('/campaign/:campaign_id', { schema: ops.ListCampaignContacts }, async (request) =>
    listCampaignContactsPage({ db, principal: request.principal, campaignId: request.params.campaign_id, query: request.query, defaultCountry, statementTimeoutMs }));
  app.get('/:id', { schema: ops.ReadContact }, async (request) =>
    requireContact(db, request.principal, request.params.id));
  app.put('/:id', { schema: ops.UpdateContact }, async (request) =>
    updateContact({ db, principal: request.principal, id: request.params.id, input: request.body, defaultCountry }));
  app.delete('/:id', { schema: ops.DeleteContact }, async (request) =>
    deleteContact({ db, principal: request.principal, id: request.params.id, now: clock.now() }));
}

import type { App } from '../../../app.ts';
import { ErrorResponses, IdParams } from '../../../http/schemas.ts';
import { CampaignRedaction, CampaignRedactionUpdate, REDACTION_DOC, RedactionSettings, RedactionSettingsUpdate } from './redaction-settings.schemas.ts';
import { readCampaignRedaction, readRedactionSettings, updateCampaignRedaction, updateRedactionSettings } from './redaction-settings.service.ts';

/** GET/PUT /api/v1/privacy/redaction: what the account redacts, and where. Sub-users read it; the owner changes it. */
export async function redactionSettingsRoutes(app: App) {
  const { db } = app.deps;
  const tags = ['privacy'];
  app.get('/redaction', {
    schema: { tags, operationId: 'read_redaction_settings', summary: 'Read what the account redacts, and where', description: REDACTION_DOC, response: { 200: RedactionSettings, ...ErrorResponses } },
  }, async (request) => readRedactionSettings(db, request.principal));

  app.put('/redaction', {
    schema: {
      tags, operationId: 'update_redaction_settings', summary: 'Change what the account redacts, and where (owner only, audited)',
      description: `${REDACTION_DOC} Only the account owner changes it (a sub-user's change is 403); audited (privacy.redaction_changed). An empty list of categories or places redacts nothing.`,
      body: RedactionSettingsUpdate, response: { 200: RedactionSettings, ...ErrorResponses },
    },
  }, async (request) => updateRedactionSettings(db, request.principal, request.body, request));
}

/** GET/PUT /api/v1/campaigns/{id}/redaction, registered under the campaigns prefix: a campaign's own choice. */
export async function campaignRedactionRoutes(app: App) {
  const { db } = app.deps;
  const tags = ['campaigns'];
  const ACCESS = 'The campaign must be visible: the owner\'s, or granted to the sub-user (another account\'s is 403, an unknown id 404).';
  app.get('/:id/redaction', {
    schema: {
      tags, operationId: 'read_campaign_redaction', summary: 'Read what a campaign redacts, and where',
      description: `A campaign's own categories and places (null: the account's) and what applies (effective). ${REDACTION_DOC} ${ACCESS}`,
      params: IdParams, response: { 200: CampaignRedaction, ...ErrorResponses },
    },
  }, async (request) => readCampaignRedaction(db, request.principal, request.params.id));

  app.put('/:id/redaction', {
    schema: {
      tags, operationId: 'update_campaign_redaction', summary: 'Change what a campaign redacts, and where (owner only, audited)',
      description: 'A campaign may redact more or less than its account (a campaign whose webhook needs the e-mail, say): its own categories and places ' +
        `replace the account's (null: the account's). Only the account owner changes it (a sub-user's change is 403); audited (privacy.redaction_changed, subject the campaign). ${ACCESS}`,
      params: IdParams, body: CampaignRedactionUpdate, response: { 200: CampaignRedaction, ...ErrorResponses },
    },
  }, async (request) => updateCampaignRedaction(db, request.principal, request.params.id, request.body, request));
}

import type { App } from '../../../app.ts';
import { ErrorResponses, IdParams } from '../../../http/schemas.ts';
import { CampaignPrivacy, CampaignPrivacyUpdate, PrivacySettings, PrivacySettingsUpdate, RETENTION_DOC } from './retention.schemas.ts';
import { readCampaignPrivacy, readPrivacySettings, updateCampaignPrivacy, updatePrivacySettings } from './retention.service.ts';

/** GET/PUT /api/v1/privacy/settings: the account's privacy rules (retention). Sub-users read them; the owner changes them. */
export async function privacySettingsRoutes(app: App) {
  const { db } = app.deps;
  const tags = ['privacy'];
  app.get('/settings', {
    schema: { tags, operationId: 'read_privacy_settings', summary: 'Read the account\'s retention of personal data', description: RETENTION_DOC, response: { 200: PrivacySettings, ...ErrorResponses } },
  }, async (request) => readPrivacySettings(db, request.principal));

  app.put('/settings', {
    schema: {
      tags, operationId: 'update_privacy_settings', summary: 'Change the account\'s retention of personal data (owner only, audited)',
      description: `${RETENTION_DOC} Only the account owner changes it (a sub-user's change is 403); a change is audited (privacy.retention_changed) and applies from the job's next run.`,
      body: PrivacySettingsUpdate, response: { 200: PrivacySettings, ...ErrorResponses },
    },
  }, async (request) => updatePrivacySettings(db, request.principal, request.body, request));
}

/** GET/PUT /api/v1/campaigns/{id}/privacy, registered under the campaigns prefix: a campaign's stricter retention. */
export async function campaignPrivacyRoutes(app: App) {
  const { db } = app.deps;
  const tags = ['campaigns'];
  const ACCESS = 'The campaign must be visible: the owner\'s, or granted to the sub-user (another account\'s is 403, an unknown id 404).';
  app.get('/:id/privacy', {
    schema: {
      tags, operationId: 'read_campaign_privacy', summary: 'Read a campaign\'s retention of personal data',
      description: `A campaign may keep its data for fewer days than its account: the shorter applies (effective_retention_days). ${RETENTION_DOC} ${ACCESS}`,
      params: IdParams, response: { 200: CampaignPrivacy, ...ErrorResponses },
    },
  }, async (request) => readCampaignPrivacy(db, request.principal, request.params.id));

  app.put('/:id/privacy', {
    schema: {
      tags, operationId: 'update_campaign_privacy', summary: 'Change a campaign\'s retention of personal data (owner only, audited)',
      description: 'A campaign\'s own retention_days (null: the account\'s applies); the shorter of it and the account\'s applies, so a campaign can only keep ' +
        `less. Only the account owner changes it (a sub-user's change is 403); audited (privacy.retention_changed, subject the campaign). ${ACCESS}`,
      params: IdParams, body: CampaignPrivacyUpdate, response: { 200: CampaignPrivacy, ...ErrorResponses },
    },
  }, async (request) => updateCampaignPrivacy(db, request.principal, request.params.id, request.body, request));
}

import type { App } from '../../../app.ts';
import { ErrorResponses, IdParams } from '../../../http/schemas.ts';
import { CampaignRecording, CampaignRecordingUpdate, RECORDING_DOC } from './recording-settings.schemas.ts';
import { readCampaignRecording, updateCampaignRecording } from './recording-settings.service.ts';

/** GET/PUT /api/v1/campaigns/{id}/recording, registered under the campaigns prefix: how a campaign's calls are recorded. */
export async function campaignRecordingRoutes(app: App) {
  const { db } = app.deps;
  const tags = ['campaigns'];
  const ACCESS = 'The campaign must be visible: the owner\'s, or granted to the sub-user (another account\'s is 403, an unknown id 404).';
  app.get('/:id/recording', {
    schema: { tags, operationId: 'read_campaign_recording', summary: 'Read how a campaign\'s calls are recorded', description: `${RECORDING_DOC} ${ACCESS}`, params: IdParams, response: { 200: CampaignRecording, ...ErrorResponses } },
  }, async (request) => readCampaignRecording(db, request.principal, request.params.id));

  app.put('/:id/recording', {
    schema: {
      tags, operationId: 'update_campaign_recording', summary: 'Change how a campaign\'s calls are recorded (owner only, audited)',
      description: `${RECORDING_DOC} Applies to calls started from then on. disclosure and consent_prompt left out keep their value (null: the default words). ` +
        `Only the account owner changes it (a sub-user's change is 403); audited (privacy.recording_changed, subject the campaign). ${ACCESS}`,
      params: IdParams, body: CampaignRecordingUpdate, response: { 200: CampaignRecording, ...ErrorResponses },
    },
  }, async (request) => updateCampaignRecording(db, request.principal, request.params.id, request.body, request));
}

import type { App } from '../../app.ts';
import { ErrorResponses, IdParams } from '../../http/schemas.ts';
import { MessagingSettings, MessagingSettingsUpdate } from './messaging-settings.schemas.ts';
import { readMessagingSettings, updateMessagingSettings } from './messaging-settings.service.ts';

/**
 * GET/PUT /api/v1/campaigns/{id}/messaging, registered under the campaigns prefix. Its own
 * endpoint rather than campaign fields, so the interface's campaign schema stays exact; the
 * interface's is_auto_ai_message on the campaign stays the switch, these say how.
 */
const tags = ['messages'];
const ACCESS =
  'The campaign must be visible: the owner\'s, or granted to the sub-user (another account\'s is 403, an unknown id 404).';

export async function campaignMessagingRoutes(app: App) {
  const { db, clock } = app.deps;
  app.get('/:id/messaging', {
    schema: {
      tags, operationId: 'read_campaign_messaging', summary: 'Read a campaign\'s text-message settings',
      description: `A campaign that never saved any answers the defaults, with updated_at null. ${ACCESS}`,
      params: IdParams, response: { 200: MessagingSettings, ...ErrorResponses },
    },
  }, async (request) => readMessagingSettings(db, request.principal, request.params.id));

  app.put('/:id/messaging', {
    schema: {
      tags, operationId: 'update_campaign_messaging', summary: 'Change a campaign\'s text-message settings',
      description:
        'Partial update: the fields present change, the others keep their value (the defaults before the first save); the answer is the whole settings. ' +
        'template may name only {{contact.<field>}}, {{call.<field>}} and {{campaign.<field>}} placeholders, with fields of letters, digits and _ ' +
        '(422 on body.template naming the placeholder otherwise); an empty prompt or template is stored as null (the built-in one). ' +
        'whatsapp_content_sid is HX and messaging_service_sid MG followed by 32 lowercase hex digits. follow_up_statuses are terminal call statuses. ' +
        'Whoever may update the campaign may update these; a sub-user may not change channel, whatsapp_content_sid, messaging_service_sid, ' +
        'max_per_contact, max_ai_replies_per_day or prompt (403 naming them; sending back the current value is no change), as with the campaign\'s ' +
        `owner-only fields. ${ACCESS}`,
      params: IdParams, body: MessagingSettingsUpdate, response: { 200: MessagingSettings, ...ErrorResponses },
    },
  }, async (request) => updateMessagingSettings({ db, principal: request.principal, campaignId: request.params.id, input: request.body, now: clock.now(), request }));
}

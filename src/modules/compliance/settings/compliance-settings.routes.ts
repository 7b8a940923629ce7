import type { App } from '../../../app.ts';
import { Detail, ErrorResponses } from '../../../http/schemas.ts';
import { Settings, SettingsUpdate } from './compliance-settings.schemas.ts';
import { readComplianceSettings, updateComplianceSettings } from './compliance-settings.service.ts';

/**
 * GET/PUT /api/v1/compliance/settings: the account's quiet hours and frequency caps, the limits no
 * campaign can exceed. Sub-users read them; only the owner changes them, and every change is
 * written to the audit trail (account.quiet_hours_changed, account.caps_changed).
 */
const tags = ['compliance'];

const DESCRIPTION =
  'Every campaign\'s calling window is clipped to the quiet hours, read in the contact\'s own time zone (its `timezone`, else its number\'s zones, ' +
  'all of which must be open). A contact whose number reached a cap is rescheduled to the first moment the cap allows, with the reason on the contact. ' +
  'The defaults follow common rules for unsolicited calls (e.g. the US TCPA\'s 8 am-9 pm); widening them is the account\'s decision and is audited. ' +
  'Texts (SMS, WhatsApp) keep the same quiet hours and have caps of their own (max_texts_per_day, max_texts_per_week), counted apart from calls.';

export async function complianceSettingsRoutes(app: App) {
  const { db } = app.deps;
  app.get('/settings', {
    schema: { tags, operationId: 'read_compliance_settings', summary: 'Read the account\'s quiet hours and frequency caps (calls and texts)', description: DESCRIPTION, response: { 200: Settings, 401: Detail, 403: Detail } },
  }, async (request) => readComplianceSettings(db, request.principal));

  app.put('/settings', {
    schema: {
      tags, operationId: 'update_compliance_settings', summary: 'Change the account\'s quiet hours and frequency caps (owner only, audited)', description: `${DESCRIPTION} The window must not cross midnight (from < to). ` +
        'max_texts_per_day and max_texts_per_week may be left out (they keep their value); each week cap is at least its day cap (422 otherwise).',
      body: SettingsUpdate, response: { 200: Settings, ...ErrorResponses },
    },
  }, async (request) => updateComplianceSettings(db, request.principal, request, request.body));
}

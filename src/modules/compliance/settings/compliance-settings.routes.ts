import type { App } from '../../../app.ts';
import { Detail, ErrorResponses } from '../../../http/schemas.ts';
import { Settings, SettingsUpdate } from './compliance-settings.schemas.ts';
import { readComplianceSettings, updateComplianceSettings } from './compliance-settings.service.ts';
import { CallCapacity, CallCapacityUpdate } from './call-capacity.schemas.ts';
import { readCallCapacity, updateCallCapacity } from './call-capacity.service.ts';

/**
 * GET/PUT /api/v1/compliance/settings: the account's quiet hours and frequency caps, the limits no
 * campaign can exceed. Sub-users read them; only the owner changes them, and every change is
 * written to the audit trail (account.quiet_hours_changed, account.caps_changed).
 *
 * GET/PUT /api/v1/compliance/capacity: the account's cap on calls in progress and its reserve for
 * inbound calls, beside them (same row, same owner-only rule; account.capacity_changed).
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

  app.get('/capacity', {
    schema: { tags, operationId: 'read_call_capacity', summary: 'Read the account\'s cap on calls in progress and its reserve for inbound calls', description: CAPACITY, response: { 200: CallCapacity, 401: Detail, 403: Detail } },
  }, async (request) => readCallCapacity(db, request.principal));

  app.put('/capacity', {
    schema: {
      tags, operationId: 'update_call_capacity', summary: 'Change the account\'s cap on calls in progress and its inbound reserve (owner only, audited)',
      description: `${CAPACITY} reserved_inbound_calls left out is 0. A reserve without a cap, or larger than it, is a 422 naming reserved_inbound_calls and changes nothing. ` +
        'Lowering the cap ends no call in progress: outbound calls wait until the account is under it.',
      body: CallCapacityUpdate, response: { 200: CallCapacity, ...ErrorResponses },
    },
  }, async (request) => updateCallCapacity(db, request.principal, request, request.body));
}

const CAPACITY =
  'max_concurrent_calls caps the account\'s calls in progress at once, every campaign, inbound and outbound; reserved_inbound_calls of them are kept ' +
  'for inbound campaigns while outbound campaigns run. The dialer starts an outbound call only while outbound + max(inbound, reserved_inbound_calls) ' +
  'stays within max_concurrent_calls, so the reserve is free for callers, and inbound calls beyond it take room outbound calls would have had. ' +
  'Inbound calls are never refused for the cap (the vendor has already delivered them). A contact the cap holds back stays due, with next_action_code ' +
  '`account_concurrency`, and is called when a call ends. The counts are taken under an account-wide lock, so the rule holds across any number of ' +
  'processes on PostgreSQL. Campaigns\' own concurrent_call_limit and the service\'s MAX_CONCURRENT_CALLS still apply.';

import type { App } from '../../app.ts';
import { ErrorResponses, IdParams } from '../../http/schemas.ts';
import { FAILURES_DOC, ProtectionSettings, ProtectionSettingsUpdate } from './protection.schemas.ts';
import { readProtectionSettings, updateProtectionSettings } from './protection.service.ts';

/**
 * GET/PUT /api/v1/campaigns/{id}/protection, registered under the campaigns prefix: the circuit
 * breaker's settings. Their own endpoint rather than campaign fields, so the interface's
 * campaign schema stays exact.
 */
const tags = ['campaigns'];
const ACCESS =
  'The campaign must be visible: the owner\'s, or granted to the sub-user (another account\'s is 403, an unknown id 404).';
const BREAKER =
  'The circuit breaker: when, among the outbound calls of the campaign that ended in the last window_seconds (and since it was last resumed), there are at least ' +
  'min_attempts and failures / attempts reaches failure_rate_threshold, the campaign pauses itself (is_paused true), once: the summary\'s paused_by says why, ' +
  'the audit trail records campaign.paused_by_breaker with the figures, and webhook integrations with send_campaign_events are sent campaign.paused. ' +
  'It is judged whenever a call of the campaign ends as a failure, in the transaction that ends it (a success only lowers the rate: failures that reached it ' +
  'while under min_attempts pause the campaign at the next failure). Resuming the campaign clears paused_by and counts from then. ' +
  FAILURES_DOC;

export async function campaignProtectionRoutes(app: App) {
  const { db, clock } = app.deps;
  app.get('/:id/protection', {
    schema: {
      tags, operationId: 'read_campaign_protection', summary: 'Read a campaign\'s circuit-breaker settings',
      description: `A campaign that never saved any answers the defaults, with updated_at null. ${BREAKER} ${ACCESS}`,
      params: IdParams, response: { 200: ProtectionSettings, ...ErrorResponses },
    },
  }, async (request) => readProtectionSettings(db, request.principal, request.params.id));

  app.put('/:id/protection', {
    schema: {
      tags, operationId: 'update_campaign_protection', summary: 'Change a campaign\'s circuit-breaker settings',
      description:
        'Partial update: the fields present change, the others keep their value (the defaults before the first save); the answer is the whole settings. ' +
        'Out-of-range values are 422 naming the field, and change nothing. Changes are audited (campaign.protection_changed). They apply from the next call that ends; ' +
        'a campaign already paused stays paused. Whoever may update the campaign may update these, except breaker_enabled, which only the account owner changes ' +
        `(a sub-user's change is 403; sending back the current value is no change). ${BREAKER} ${ACCESS}`,
      params: IdParams, body: ProtectionSettingsUpdate, response: { 200: ProtectionSettings, ...ErrorResponses },
    },
  }, async (request) => updateProtectionSettings({ db, principal: request.principal, campaignId: request.params.id, input: request.body, now: clock.now(), request }));
}

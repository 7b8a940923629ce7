import { Type, type Static } from 'typebox';
import type { App } from '../../../app.ts';
import { forbidden, unprocessable } from '../../../http/errors.ts';
import { Detail, ErrorResponses } from '../../../http/schemas.ts';
import { recordAudit } from '../../audit/audit.service.ts';
import { secondsOfDay } from '../../dialer/outbound/calling-window.ts';
import { complianceOf, type ComplianceSettings } from '../compliance-settings.ts';

/**
 * GET/PUT /api/v1/compliance/settings: the account's quiet hours and frequency caps, the limits no
 * campaign can exceed. Sub-users read them; only the owner changes them, and every change is
 * written to the audit trail (account.quiet_hours_changed, account.caps_changed).
 */
const tags = ['compliance'];
/** HH:MM or HH:MM:SS; 24:00 ends a window at midnight. */
const Clock = (description: string) => Type.String({ pattern: '^(([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d)?|24:00(:00)?)$', description });

const Settings = Type.Object({
  quiet_hours_from: Clock('start of the account\'s calling window in each contact\'s local time (default 08:00)'),
  quiet_hours_to: Clock('end of the window, exclusive; 24:00 = midnight (default 21:00)'),
  max_calls_per_day: Type.Integer({ minimum: 1, maximum: 1000, description: 'outbound calls to one number per rolling 24 hours across all of the account\'s campaigns (default 3)' }),
  max_calls_per_week: Type.Integer({ minimum: 1, maximum: 1000, description: 'outbound calls to one number per rolling 7 days across all campaigns (default 7); at least max_calls_per_day' }),
});
type Settings = Static<typeof Settings>;

const DESCRIPTION =
  'Every campaign\'s calling window is clipped to the quiet hours, read in the contact\'s own time zone (its `timezone`, else its number\'s zones, ' +
  'all of which must be open). A contact whose number reached a cap is rescheduled to the first moment the cap allows, with the reason on the contact. ' +
  'The defaults follow common rules for unsolicited calls (e.g. the US TCPA\'s 8 am-9 pm); widening them is the account\'s decision and is audited.';

const toBody = (s: ComplianceSettings): Settings => ({
  quiet_hours_from: s.quietFrom.slice(0, 5), quiet_hours_to: s.quietTo.slice(0, 5), max_calls_per_day: s.maxPerDay, max_calls_per_week: s.maxPerWeek,
});

export async function complianceSettingsRoutes(app: App) {
  const { db } = app.deps;
  app.get('/settings', {
    schema: { tags, operationId: 'read_compliance_settings', summary: 'Read the account\'s quiet hours and frequency caps', description: DESCRIPTION, response: { 200: Settings, 401: Detail, 403: Detail } },
  }, async (request) => toBody((await complianceOf(db, [request.principal.ownerId])).get(request.principal.ownerId)!));

  app.put('/settings', {
    schema: {
      tags, operationId: 'update_compliance_settings', summary: 'Change the account\'s quiet hours and frequency caps (owner only, audited)', description: `${DESCRIPTION} The window must not cross midnight (from < to).`,
      body: Settings, response: { 200: Settings, ...ErrorResponses },
    },
  }, async (request) => {
    const principal = request.principal;
    if (principal.kind !== 'user') throw forbidden();
    const b = request.body;
    if (secondsOfDay(b.quiet_hours_from) >= secondsOfDay(b.quiet_hours_to)) throw unprocessable(['body', 'quiet_hours_to'], 'must be later than quiet_hours_from (a calling window does not cross midnight)');
    if (b.max_calls_per_week < b.max_calls_per_day) throw unprocessable(['body', 'max_calls_per_week'], 'must be at least max_calls_per_day');
    return db.transaction().execute(async (trx) => {
      const before = toBody((await complianceOf(trx, [principal.ownerId])).get(principal.ownerId)!);
      const values = { quiet_hours_from: b.quiet_hours_from, quiet_hours_to: b.quiet_hours_to, max_calls_per_day: b.max_calls_per_day, max_calls_per_week: b.max_calls_per_week, updated_at: new Date() };
      await trx.insertInto('account_compliance').values({ owner_id: principal.ownerId, ...values })
        .onConflict((oc) => oc.column('owner_id').doUpdateSet(values)).execute();
      const after = toBody((await complianceOf(trx, [principal.ownerId])).get(principal.ownerId)!);
      const subject = { type: 'account' as const, id: principal.ownerId };
      if (before.quiet_hours_from !== after.quiet_hours_from || before.quiet_hours_to !== after.quiet_hours_to) {
        await recordAudit(trx, { principal, request, kind: 'account.quiet_hours_changed', subject, details: { from: [before.quiet_hours_from, before.quiet_hours_to], to: [after.quiet_hours_from, after.quiet_hours_to] } });
      }
      if (before.max_calls_per_day !== after.max_calls_per_day || before.max_calls_per_week !== after.max_calls_per_week) {
        await recordAudit(trx, { principal, request, kind: 'account.caps_changed', subject, details: { from: [before.max_calls_per_day, before.max_calls_per_week], to: [after.max_calls_per_day, after.max_calls_per_week] } });
      }
      return after;
    });
  });
}

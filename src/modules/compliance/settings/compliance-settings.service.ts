import type { Db } from '../../../db/connection.ts';
import { forbidden, unprocessable } from '../../../http/errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../../audit/audit.service.ts';
import { secondsOfDay } from '../../../shared/time-of-day.ts';
import { complianceOf, saveCompliance, type ComplianceSettings } from '../compliance-settings.ts';
import { saveTextCaps, textCapsOf, type TextCaps } from '../text-caps.ts';
import type { Settings, SettingsUpdate } from './compliance-settings.schemas.ts';

const toBody = (s: ComplianceSettings, texts: TextCaps): Settings => ({
  quiet_hours_from: s.quietFrom.slice(0, 5), quiet_hours_to: s.quietTo.slice(0, 5), max_calls_per_day: s.maxPerDay, max_calls_per_week: s.maxPerWeek,
  max_texts_per_day: texts.maxPerDay, max_texts_per_week: texts.maxPerWeek,
});

export async function readComplianceSettings(db: Db, principal: Principal): Promise<Settings> {
  return toBody((await complianceOf(db, [principal.ownerId])).get(principal.ownerId)!, await textCapsOf(db, principal.ownerId));
}

/** The owner's change, checked, saved and audited in one transaction (a sub-user: 403). */
export async function updateComplianceSettings(db: Db, principal: Principal, request: AuditRequest, b: SettingsUpdate): Promise<Settings> {
  if (principal.kind !== 'user') throw forbidden();
  if (secondsOfDay(b.quiet_hours_from) >= secondsOfDay(b.quiet_hours_to)) throw unprocessable(['body', 'quiet_hours_to'], 'must be later than quiet_hours_from (a calling window does not cross midnight)');
  if (b.max_calls_per_week < b.max_calls_per_day) throw unprocessable(['body', 'max_calls_per_week'], 'must be at least max_calls_per_day');
  return db.transaction().execute(async (trx) => {
    const before = await readComplianceSettings(trx, principal);
    const texts = { maxPerDay: b.max_texts_per_day ?? before.max_texts_per_day, maxPerWeek: b.max_texts_per_week ?? before.max_texts_per_week };
    if (texts.maxPerWeek < texts.maxPerDay) throw unprocessable(['body', 'max_texts_per_week'], 'must be at least max_texts_per_day');
    await saveCompliance(trx, principal.ownerId, { quietFrom: b.quiet_hours_from, quietTo: b.quiet_hours_to, maxPerDay: b.max_calls_per_day, maxPerWeek: b.max_calls_per_week });
    await saveTextCaps(trx, principal.ownerId, texts);
    const after = await readComplianceSettings(trx, principal);
    const subject = { type: 'account' as const, id: principal.ownerId };
    if (before.quiet_hours_from !== after.quiet_hours_from || before.quiet_hours_to !== after.quiet_hours_to) {
      await recordAudit(trx, { principal, request, kind: 'account.quiet_hours_changed', subject, details: { from: [before.quiet_hours_from, before.quiet_hours_to], to: [after.quiet_hours_from, after.quiet_hours_to] } });
    }
    if (before.max_calls_per_day !== after.max_calls_per_day || before.max_calls_per_week !== after.max_calls_per_week) {
      await recordAudit(trx, { principal, request, kind: 'account.caps_changed', subject, details: { from: [before.max_calls_per_day, before.max_calls_per_week], to: [after.max_calls_per_day, after.max_calls_per_week] } });
    }
    if (before.max_texts_per_day !== after.max_texts_per_day || before.max_texts_per_week !== after.max_texts_per_week) {
      await recordAudit(trx, { principal, request, kind: 'account.caps_changed', subject, details: { channel: 'text', from: [before.max_texts_per_day, before.max_texts_per_week], to: [after.max_texts_per_day, after.max_texts_per_week] } });
    }
    return after;
  });
}

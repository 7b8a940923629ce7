import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { secondsOfDay } from '../../shared/time-of-day.ts';

/**
 * An account's limits no campaign can exceed (account_compliance; no row = the defaults): the
 * quiet hours every campaign window is clipped to, in the contact's local time, and the frequency
 * caps on outbound calls to one number across all of the account's campaigns.
 */
export interface ComplianceSettings {
  quietFrom: string;
  quietTo: string;
  maxPerDay: number;
  maxPerWeek: number;
}

export const DEFAULT_COMPLIANCE: ComplianceSettings = { quietFrom: '08:00:00', quietTo: '21:00:00', maxPerDay: 3, maxPerWeek: 7 };

/** The quiet hours as the calling window's seconds of the day. */
export const quietBounds = (s: ComplianceSettings): [number, number] => [secondsOfDay(s.quietFrom), secondsOfDay(s.quietTo)];

export async function complianceOf(db: Db, ownerIds: number[]): Promise<Map<number, ComplianceSettings>> {
  const result = new Map<number, ComplianceSettings>(ownerIds.map((id) => [id, DEFAULT_COMPLIANCE]));
  if (ownerIds.length === 0) return result;
  const { rows } = await sql<{ owner_id: number; quiet_hours_from: string; quiet_hours_to: string; max_calls_per_day: number; max_calls_per_week: number }>`
    SELECT owner_id, quiet_hours_from::text, quiet_hours_to::text, max_calls_per_day, max_calls_per_week
    FROM account_compliance WHERE owner_id = ANY(${[...new Set(ownerIds)]}::bigint[])`.execute(db);
  for (const r of rows) {
    result.set(Number(r.owner_id), { quietFrom: r.quiet_hours_from, quietTo: r.quiet_hours_to, maxPerDay: r.max_calls_per_day, maxPerWeek: r.max_calls_per_week });
  }
  return result;
}

/** Writes the account's settings (one row per account; no row means the defaults). */
export async function saveCompliance(db: Db, ownerId: number, s: ComplianceSettings): Promise<void> {
  const values = { quiet_hours_from: s.quietFrom, quiet_hours_to: s.quietTo, max_calls_per_day: s.maxPerDay, max_calls_per_week: s.maxPerWeek, updated_at: new Date() };
  await db.insertInto('account_compliance').values({ owner_id: ownerId, ...values })
    .onConflict((oc) => oc.column('owner_id').doUpdateSet(values)).execute();
}

import { timezonesForPhone } from '../../shared/phone-timezones.ts';
import { isValidTimeZone } from '../../shared/timezone.ts';
import type { WorkSchedule } from './work-schedule.ts';
import { nextOpening, type WindowRule } from './calling-window.ts';
import { NO_WINDOW, type NextAction } from './next-action.ts';

export interface CampaignWindowFields {
  call_allowed_from_time: string | null;
  call_allowed_to_time: string | null;
  work_schedule: unknown;
}

/**
 * The zones a contact's allowed window is read in: its own timezone; else its number's
 * zone(s) (all of them must be open when the prefix spans several); else the
 * campaign's (work_schedule.timezone); else UTC.
 */
export async function contactZones(contact: { timezone: string | null; phone_number: string }, schedule: WorkSchedule | null): Promise<string[]> {
  if (contact.timezone && isValidTimeZone(contact.timezone)) return [contact.timezone];
  const fromPhone = (await timezonesForPhone(contact.phone_number)).filter(isValidTimeZone);
  if (fromPhone.length > 0) return fromPhone;
  if (schedule?.timezone && isValidTimeZone(schedule.timezone)) return [schedule.timezone];
  return ['UTC'];
}

/**
 * The contact's rule: the campaign's window and schedule, clipped to the account's quiet hours
 * (`quiet`: seconds of the day, read in the contact's zones like the allowed window). Quiet
 * hours are required: a rule without them scheduled retries and predicted calls at night.
 */
export async function windowRuleFor(
  campaign: CampaignWindowFields,
  contact: { timezone: string | null; phone_number: string },
  quiet: [number, number],
): Promise<WindowRule> {
  const schedule = (campaign.work_schedule ?? null) as WorkSchedule | null;
  const hasAllowed = campaign.call_allowed_from_time !== null || campaign.call_allowed_to_time !== null;
  return {
    allowedFrom: campaign.call_allowed_from_time,
    allowedTo: campaign.call_allowed_to_time,
    // Zone lookups are skipped when no window in the contact's time needs them.
    zones: hasAllowed || quiet ? await contactZones(contact, schedule) : [],
    schedule,
    quiet,
  };
}

/**
 * Where a retry lands: at the first moment from `retry.at` that the contact's window and the
 * account's quiet hours allow (the shown next_action_time is when the call really can start),
 * or waiting for the campaign to change when its window never opens.
 */
export function retryStep(rule: WindowRule, retry: { at: Date; next: NextAction }): { status: string; at: Date | null; next: NextAction } {
  const at = nextOpening(rule, retry.at);
  if (!at) return { status: 'awaiting_queue', at: null, next: NO_WINDOW };
  const reason = at > retry.at ? `${retry.next.reason}; moved to the next calling window` : retry.next.reason;
  return { status: 'call_scheduled', at, next: { code: retry.next.code, reason } };
}

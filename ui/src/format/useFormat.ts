import { useMemo } from 'react';
import { usePreferences } from '../pages/profile/queries';
import { formatMoney } from './money';
import { contactStatusLabel, callStatusLabel, callTypeLabel, channelLabel, deliveryStatusLabel, messageJobStatusLabel, messagePurposeLabel, messageStatusLabel, outcomeLabel } from './statuses';
import { browserZone, formatDay, formatHour, formatTime, withTimesIn } from './time';

/**
 * The formatters of the signed-in account: times in its display zone (none chosen: the browser's),
 * money in its currency. Pages call this rather than the formatters with their own zone, so every
 * page shows the same instant and the same amount alike. Until the preferences arrive (one request,
 * cached for the session) the browser's zone and USD, the defaults of an account that chose nothing.
 */
export function useFormat() {
  const preferences = usePreferences();
  const zone = preferences.data?.display_timezone ?? browserZone();
  const currency = preferences.data?.display_currency ?? 'USD';
  return useMemo(() => ({
    zone,
    currency,
    time: (iso: string | Date | null | undefined) => formatTime(iso, zone),
    day: (iso: string | Date, precision: 'day' | 'month' = 'day') => formatDay(iso, zone, precision),
    hour: (iso: string | Date) => formatHour(iso, zone),
    /** A sentence of the service with its ISO instants shown in the zone. */
    sentence: (text: string | null | undefined) => (text ? withTimesIn(text, zone) : ''),
    money: (amount: number | null | undefined) => formatMoney(amount, currency),
    contactStatus: contactStatusLabel,
    callStatus: callStatusLabel,
    outcome: outcomeLabel,
    callType: callTypeLabel,
    deliveryStatus: deliveryStatusLabel,
    messageStatus: messageStatusLabel,
    messagePurpose: messagePurposeLabel,
    channel: channelLabel,
    messageJobStatus: messageJobStatusLabel,
  }), [zone, currency]);
}

export type Format = ReturnType<typeof useFormat>;

import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * WhatsApp's customer-service window: free text may be sent for 24 hours after the person's last
 * message to the business; outside it only an approved template (a Content SID) may be, and
 * Twilio refuses free text with 63016 after the text was paid for in a round trip. So the sender
 * decides before it sends: inside the window the words as written, outside the campaign's
 * template, and with no template the text is not sent (skipped, saying why), not tried.
 */
export const WHATSAPP_WINDOW_MS = 24 * 60 * 60 * 1000;

export type WhatsAppForm = { kind: 'text' } | { kind: 'template'; contentSid: string } | { kind: 'closed'; reason: string };

/** The contacts among `contactIds` whose last inbound WhatsApp text is less than 24 hours old. */
export async function openWhatsAppSessions(trx: Transaction<Database>, contactIds: number[], now: Date): Promise<Set<number>> {
  if (contactIds.length === 0) return new Set();
  const { rows } = await sql<{ contact_id: number }>`
    SELECT DISTINCT contact_id FROM messages
     WHERE contact_id = ANY(${[...new Set(contactIds)]}::bigint[]) AND direction = 'inbound' AND source = 'whatsapp'
       AND created_at > ${new Date(now.getTime() - WHATSAPP_WINDOW_MS)}::timestamptz`.execute(trx);
  return new Set(rows.map((r) => Number(r.contact_id)));
}

/** How a WhatsApp text goes out: as written inside the window, else as the approved template, else not at all. */
export function whatsappForm(sessionOpen: boolean, contentSid: string | null): WhatsAppForm {
  if (sessionOpen) return { kind: 'text' };
  if (contentSid) return { kind: 'template', contentSid };
  return {
    kind: 'closed',
    reason: 'outside WhatsApp\'s 24-hour window (the person has not written in the last 24 hours) and the campaign has no approved template (whatsapp_content_sid)',
  };
}

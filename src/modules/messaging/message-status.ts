import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { MessageStatus } from '../../db/tables/messaging.ts';
import type { TextStatusReport } from '../../messaging/text-channel.ts';

export type { TextStatusReport };

/**
 * Delivery reports of outbound texts, from any vendor. Reports arrive out of order and more
 * than once: a message only moves forward (sending < queued < sent < delivered < read; failed
 * and undelivered end it), and a report for a message of another route is ignored.
 *
 * Adoption: a send whose answer was lost stays `sending` without the vendor's id. The report
 * carries our id in its URL (`messageId`), so the vendor's id is written then, and the text is
 * known to have gone; a message that was never reported is failed by the sweep (text-sweep.ts).
 */
const RANK: Record<MessageStatus, number> = { sending: 0, queued: 1, sent: 2, delivered: 3, read: 4, undelivered: 5, failed: 5, received: 9 };
export const isFinalTextStatus = (s: MessageStatus) => RANK[s] === 5 || s === 'read';


/** Applies one report; returns the message's id, or null when no message of that route matches. */
export async function applyTextStatus(db: Db, r: TextStatusReport): Promise<{ id: number; status: MessageStatus; contactId: number; errorCode: string | null } | null> {
  const rank = RANK[r.status];
  const { rows } = await sql<{ id: number; status: MessageStatus; contact_id: number; error_code: string | null }>`
    UPDATE messages m SET
      provider_message_id = coalesce(m.provider_message_id, ${r.providerMessageId}),
      status = CASE WHEN ${rank}::int > (CASE m.status WHEN 'sending' THEN 0 WHEN 'queued' THEN 1 WHEN 'sent' THEN 2
                 WHEN 'delivered' THEN 3 WHEN 'read' THEN 4 ELSE 5 END) THEN ${r.status} ELSE m.status END,
      error_code = coalesce(${r.errorCode ?? null}, m.error_code),
      error_message = coalesce(${r.errorMessage ?? null}, m.error_message),
      cost = coalesce(${r.cost ?? null}::float8, m.cost),
      sent_at = coalesce(m.sent_at, ${r.at}::timestamptz),
      delivered_at = CASE WHEN ${r.status} IN ('delivered', 'read') THEN coalesce(m.delivered_at, ${r.at}::timestamptz) ELSE m.delivered_at END,
      updated_at = now()
    WHERE m.provider = ${r.provider} AND m.direction = 'outbound'
      AND m.voice_connection_id IS NOT DISTINCT FROM ${r.connectionId}::bigint
      AND (m.provider_message_id = ${r.providerMessageId}
           OR (${r.messageId ?? null}::bigint IS NOT NULL AND m.id = ${r.messageId ?? null}::bigint AND m.provider_message_id IS NULL))
    RETURNING m.id, m.status, m.contact_id, m.error_code`.execute(db);
  const row = rows[0];
  return row ? { id: Number(row.id), status: row.status, contactId: Number(row.contact_id), errorCode: row.error_code } : null;
}

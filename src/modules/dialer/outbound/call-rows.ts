import { sql, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/**
 * The rows a dialling round writes. Invariants: at most one call in progress per contact and
 * per number of an account (the unique live-call indexes; a second one is "not inserted",
 * ON CONFLICT DO NOTHING, and its contact is retried later), and a contact is `in progress`
 * exactly when its call row is, both written in the claim's transaction (round-writer.ts; the
 * contact's side is the lifecycle repository's markContactsCalling).
 *
 * Lock order: last in a round, after the cap, contact and campaign locks
 * (concurrency-locks.ts). The calls are inserted in (owner, number) order, the order of the
 * unique index on live numbers, so two rounds inserting calls to shared numbers wait on each
 * other in one direction only. The contact rows updated here are the ones the claim locked.
 */

type Trx = Transaction<Database>;

export interface NewOutboundCall {
  contactId: number;
  ownerId: number;
  campaignId: number;
  from: string | null;
  to: string;
  title: string;
  contactData: string;
  callData: string;
  /** The route the call goes through (vendor-pacing.ts). */
  provider: string;
  connectionId: number | null;
  /** The prompt version in force (campaign-prompts.ts promptVersionsFor); null: none. */
  promptHistoryId?: number | null;
  /** The experiment variant the contact was given (quality/experiments/dialer-split.ts); null: none ran. */
  experimentVariantId?: number | null;
}

/**
 * Writes the call rows. ON CONFLICT DO NOTHING lets the unique live-call indexes turn
 * a second call to a number (or contact) into "not inserted" instead of an error.
 */
export async function insertCalls(trx: Trx, calls: NewOutboundCall[], now: Date): Promise<{ id: number; contact_id: number }[]> {
  if (calls.length === 0) return [];
  // In (owner, number) order, the order of the unique index on live numbers: two workers
  // inserting calls to shared numbers in opposite orders waited on each other (a deadlock).
  calls = [...calls].sort((a, b) => a.ownerId - b.ownerId || (a.to < b.to ? -1 : a.to > b.to ? 1 : a.contactId - b.contactId));
  const { rows } = await sql<{ id: number; contact_id: number }>`
    INSERT INTO calls (owner_id, campaign_id, contact_id, status, from_number, to_number, start_time, call_type, campaign_title, contact_data, call_data, provider, voice_connection_id, prompt_history_id, experiment_variant_id)
    SELECT o, cp, ct, 'in progress', f, t, ${now}::timestamptz, 'outbound', ti, cd::jsonb, kd::jsonb, pr, vc, ph, ev
    FROM unnest(${calls.map((c) => c.ownerId)}::bigint[], ${calls.map((c) => c.campaignId)}::bigint[], ${calls.map((c) => c.contactId)}::bigint[],
                ${calls.map((c) => c.from)}::text[], ${calls.map((c) => c.to)}::text[], ${calls.map((c) => c.title)}::text[],
                ${calls.map((c) => c.contactData)}::text[], ${calls.map((c) => c.callData)}::text[],
                ${calls.map((c) => c.provider)}::text[], ${calls.map((c) => c.connectionId)}::bigint[], ${calls.map((c) => c.promptHistoryId ?? null)}::bigint[],
                ${calls.map((c) => c.experimentVariantId ?? null)}::bigint[]) AS u(o, cp, ct, f, t, ti, cd, kd, pr, vc, ph, ev)
    ON CONFLICT DO NOTHING
    RETURNING id, contact_id`.execute(trx);
  return rows;
}

import { sql, type Transaction } from 'kysely';
import { suppressContacts } from '../../contact-lifecycle/contact-lifecycle.repository.ts';
import type { Database } from '../../../db/schema.ts';
import { detectOptOut } from '../../compliance/opt-out/opt-out-detector.ts';
import type { CallOutcome } from './call-finish.ts';

/**
 * "Stop calling me", heard on a call: the number goes on the account's do-not-call list with the
 * call as its source, the contact ends do_not_disturb and no retry is scheduled. Found from the
 * assistant's own signal where the vendor gives one (an `opt_out` flag in its post-call analysis,
 * or our Twilio agent's do-not-call tool), the LLM when configured (llm-opt-out.ts, before the event
 * is applied), else the offline detector on the caller's words (src/modules/compliance/opt-out).
 */
export interface OptOutFinding {
  detected_by: 'assistant' | 'llm' | 'offline';
  phrase: string | null;
  language: string | null;
}

export function findOptOut(o: CallOutcome): OptOutFinding | null {
  const analysis = o.analysis ?? {};
  const structured = (analysis.structuredData ?? analysis.custom_analysis_data ?? {}) as Record<string, unknown>;
  if (o.optOutBy) return { detected_by: o.optOutBy, phrase: null, language: null };
  if (analysis.opt_out === true || structured.opt_out === true) return { detected_by: 'assistant', phrase: null, language: null };
  if (!o.transcript?.length) return null;
  const found = detectOptOut(o.transcript);
  return found.optOut ? { detected_by: 'offline', phrase: found.phrase, language: found.language } : null;
}

export const optOutReason = (callId: number, f: OptOutFinding) =>
  `opted out on call ${callId}: asked not to be called again${f.phrase ? ` ("${f.phrase}")` : ''}`;

/**
 * Suppresses the numbers in the call-ending transaction. The account's other contacts with the
 * number are moved to do_not_disturb unless another transaction holds them (SKIP LOCKED: a
 * dialling round that has claimed one, which would otherwise wait on this call while this waits on
 * it); such a contact meets the suppression at dial time (start-calls.ts) and goes there then.
 */
export async function suppressOptOuts(trx: Transaction<Database>, items: { ownerId: number; phone: string; callId: number; reason: string }[]): Promise<void> {
  for (const item of [...items].sort((a, b) => a.ownerId - b.ownerId || (a.phone < b.phone ? -1 : 1))) {
    const { rows } = await sql<{ id: number }>`
      INSERT INTO suppressions (owner_id, phone_number, reason, source, call_id)
      VALUES (${item.ownerId}, ${item.phone}, ${item.reason}, 'opt_out', ${item.callId})
      ON CONFLICT (owner_id, phone_number) DO UPDATE SET source = 'opt_out', call_id = EXCLUDED.call_id, reason = EXCLUDED.reason, expires_at = NULL
      RETURNING id`.execute(trx);
    await suppressContacts(trx, item.ownerId, [{ phone: item.phone, reason: `suppressed: ${item.reason} (do-not-call list, suppression ${rows[0]!.id})` }], { skipLocked: true });
  }
}

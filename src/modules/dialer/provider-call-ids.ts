import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Db } from '../../db/connection.ts';

/**
 * The provider's id of each started call, outbound and inbound. Invariant: written once per
 * call (ON CONFLICT DO NOTHING), only for a call that still exists.
 *
 * Lock order: after the dial, outside the round's transaction; the call rows are
 * share-locked (FOR KEY SHARE) in id order, the order event batches lock calls in
 * (call-events/call-locks.ts).
 */

type Trx = Transaction<Database>;

/**
 * Remembers the provider's id of each started call (see migration 0007 for why it is
 * not written onto the call row). The calls are share-locked in id order first (event
 * batches lock calls in id order too, so the two never deadlock), and a call deleted
 * meanwhile (its campaign or contact was deleted) is skipped rather than failing the rest.
 */
export async function saveProviderIds(db: Trx | Db, rows: { callId: number; providerCallId: string }[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO call_provider_refs (call_id, provider_call_id)
    SELECT k.id, u.p FROM unnest(${rows.map((r) => r.callId)}::bigint[], ${rows.map((r) => r.providerCallId)}::text[]) AS u(id, p)
    JOIN calls k ON k.id = u.id
    ORDER BY k.id
    FOR KEY SHARE OF k
    ON CONFLICT (call_id) DO NOTHING`.execute(db);
}

import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';

/**
 * The account's cap on its calls in progress at once and the part kept for inbound calls
 * (account_compliance, migration 0037; no row = no cap, no reserve). The dialer holds it
 * (modules/dialer/account-capacity.ts); this file reads and writes the setting for the API.
 */
export interface CallCapacity {
  maxConcurrent: number | null;
  reservedInbound: number;
  /** The account's calls in progress now, by direction (every campaign). */
  outboundLive: number;
  inboundLive: number;
}

/** The setting and the live counts, in one statement (the counts read the live-number index of calls). */
export async function callCapacityOf(db: Db, ownerId: number): Promise<CallCapacity> {
  const { rows: [row] } = await sql<{ max: number | null; reserve: number | null; outbound: number; inbound: number }>`
    SELECT s.max_concurrent_calls AS max, s.reserved_inbound_calls AS reserve,
           (SELECT count(*) FROM calls k WHERE k.owner_id = o.id AND k.status = 'in progress' AND k.call_type IS DISTINCT FROM 'inbound')::int AS outbound,
           (SELECT count(*) FROM calls k WHERE k.owner_id = o.id AND k.status = 'in progress' AND k.call_type = 'inbound')::int AS inbound
    FROM (SELECT ${ownerId}::bigint AS id) o LEFT JOIN account_compliance s ON s.owner_id = o.id`.execute(db);
  return { maxConcurrent: row?.max ?? null, reservedInbound: row?.reserve ?? 0, outboundLive: row?.outbound ?? 0, inboundLive: row?.inbound ?? 0 };
}

/** Writes the two columns on the account's row (created with the other settings' defaults if missing). */
export async function saveCallCapacity(db: Db, ownerId: number, s: { maxConcurrent: number | null; reservedInbound: number }): Promise<void> {
  const values = { max_concurrent_calls: s.maxConcurrent, reserved_inbound_calls: s.reservedInbound, updated_at: new Date() };
  await db.insertInto('account_compliance').values({ owner_id: ownerId, ...values })
    .onConflict((oc) => oc.column('owner_id').doUpdateSet(values)).execute();
}

import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Usage limits. Invariant: a campaign with an active limit (limit_value per limit_unit in
 * [limit_start, limit_end]) starts no call and sends no text once its usage, counted from its
 * calls (and, for cost, its outbound texts), reaches the limit; limit_usage/limit_reached show
 * that count.
 *
 * Lock order: the dialer reads usage without row locks, under the campaign's advisory lock
 * (concurrency-locks.ts), so no other round starts calls for the campaign between the count
 * and the insert. refreshUsage writes the campaign row: when calls end, after their call and
 * contact rows and with the campaigns in id order (call-events/call-finish.ts); in the sweep,
 * one campaign per transaction.
 */

type Trx = Transaction<Database>;

export interface LimitFields {
  id: number;
  limit_start: Date | null;
  limit_end: Date | null;
  limit_value: number | null;
  limit_unit: string | null;
}

/** A usage limit applies while `now` is inside [limit_start, limit_end] (open ends when null). */
export function limitActive(c: LimitFields, now: Date): boolean {
  if (c.limit_value === null || c.limit_unit === null) return false;
  if (c.limit_start && now < c.limit_start) return false;
  if (c.limit_end && now > c.limit_end) return false;
  return true;
}

/**
 * Usage in the limit period, counted from the calls and texts themselves (so it cannot drift):
 * contacts = distinct contacts with an outbound call started in the period (calls in
 * progress included), minutes = billed minutes (each call's duration rounded up to a
 * whole minute) of ended calls, cost = sum of ended calls' cost plus the cost of the outbound
 * texts written in the period (created_at; a text's cost is known once the vendor reports it).
 */
export async function periodUsage(trx: Trx, c: LimitFields): Promise<number> {
  const inPeriod = (column: string) => sql`campaign_id = ${c.id}
    AND ${sql.ref(column)} >= coalesce(${c.limit_start}::timestamptz, '-infinity'::timestamptz)
    AND ${sql.ref(column)} <= coalesce(${c.limit_end}::timestamptz, 'infinity'::timestamptz)`;
  const expr =
    c.limit_unit === 'contacts' ? sql`count(DISTINCT contact_id) FILTER (WHERE call_type = 'outbound')`
    : c.limit_unit === 'minutes' ? sql`coalesce(sum(ceil(call_duration / 60.0)) FILTER (WHERE status <> 'in progress'), 0)`
    : sql`coalesce(sum(cost) FILTER (WHERE status <> 'in progress'), 0)
        + (SELECT coalesce(sum(cost), 0) FROM messages WHERE ${inPeriod('created_at')} AND direction = 'outbound')`;
  const { rows } = await sql<{ usage: number }>`SELECT (${expr})::float8 AS usage FROM calls WHERE ${inPeriod('start_time')}`.execute(trx);
  return Number(rows[0]?.usage ?? 0);
}

/** The average cost of the campaign's ended paid calls in the limit period (null before the first). */
export async function periodCostPerCall(trx: Trx, c: LimitFields): Promise<number | null> {
  const { rows } = await sql<{ avg: number | null }>`
    SELECT avg(cost) FILTER (WHERE cost > 0 AND status <> 'in progress')::float8 AS avg FROM calls
    WHERE campaign_id = ${c.id}
      AND start_time >= coalesce(${c.limit_start}::timestamptz, '-infinity'::timestamptz)
      AND start_time <= coalesce(${c.limit_end}::timestamptz, 'infinity'::timestamptz)`.execute(trx);
  const avg = rows[0]?.avg;
  return avg === null || avg === undefined ? null : Number(avg);
}

/** Keeps limit_usage and limit_reached current; called as calls end and by the sweep. */
export async function refreshUsage(trx: Trx, c: LimitFields, now: Date): Promise<{ usage: number; reached: boolean }> {
  if (c.limit_value === null || c.limit_unit === null) return { usage: 0, reached: false };
  const usage = await periodUsage(trx, c);
  const reached = limitActive(c, now) && usage >= c.limit_value;
  await trx.updateTable('campaigns').set({ limit_usage: usage, limit_reached: reached }).where('id', '=', c.id).execute();
  return { usage, reached };
}

/** Contacts among `ids` that already had an outbound call in the campaign's limit period. */
export async function contactsCalledInPeriod(trx: Trx, campaign: LimitFields, ids: number[]): Promise<Set<number>> {
  const { rows } = await sql<{ contact_id: number }>`
    SELECT DISTINCT contact_id FROM calls
    WHERE campaign_id = ${campaign.id} AND contact_id = ANY(${ids}::bigint[]) AND call_type = 'outbound'
      AND start_time >= coalesce(${campaign.limit_start}::timestamptz, '-infinity'::timestamptz)
      AND start_time <= coalesce(${campaign.limit_end}::timestamptz, 'infinity'::timestamptz)`.execute(trx);
  return new Set(rows.map((r) => r.contact_id));
}

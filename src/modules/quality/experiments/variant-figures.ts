import { sql } from 'kysely';
import type { Db } from '../../../db/connection.ts';

/**
 * The figures of an experiment's variants, read from their calls (calls.experiment_variant_id).
 * Only ended calls count (an in-progress call has no outcome yet). Definitions follow analytics:
 * reached = call_duration > 0 (answered); interested = status finished and action_status
 * interested, scheduled or transferred (successful), counted per contact.
 */

export interface VariantFigures {
  calls: number;
  contacts: number;
  reached_calls: number;
  interested_contacts: number;
  average_duration: number | null;
  total_cost: number;
}

export async function variantFigures(db: Db, campaignId: number, variantIds: number[]): Promise<Map<number, VariantFigures>> {
  if (variantIds.length === 0) return new Map();
  const { rows } = await sql<{ variant_id: string; calls: string; contacts: string; reached_calls: string; interested_contacts: string; average_duration: string | null; total_cost: string | null }>`
    SELECT experiment_variant_id AS variant_id, count(*) AS calls, count(DISTINCT contact_id) AS contacts,
           count(*) FILTER (WHERE call_duration > 0) AS reached_calls,
           count(DISTINCT contact_id) FILTER (WHERE status = 'finished' AND action_status IN ('interested', 'scheduled', 'transferred')) AS interested_contacts,
           avg(call_duration) FILTER (WHERE call_duration > 0) AS average_duration,
           sum(cost) AS total_cost
    FROM calls
    WHERE campaign_id = ${campaignId} AND experiment_variant_id = ANY(${variantIds}::bigint[]) AND status <> 'in progress'
    GROUP BY experiment_variant_id`.execute(db);
  return new Map(rows.map((r) => [Number(r.variant_id), {
    calls: Number(r.calls), contacts: Number(r.contacts), reached_calls: Number(r.reached_calls), interested_contacts: Number(r.interested_contacts),
    average_duration: r.average_duration === null ? null : Number(r.average_duration), total_cost: Number(r.total_cost ?? 0),
  }]));
}

/** The average score (0-100, the campaign's scorecard, call_scores) of each variant's scored calls. */
export async function averageScores(db: Db, variantIds: number[]): Promise<Map<number, { average: number; scored: number }>> {
  if (variantIds.length === 0) return new Map();
  const { rows } = await sql<{ variant_id: string; average: string | null; scored: string }>`
    SELECT c.experiment_variant_id AS variant_id, avg(s.score) AS average, count(s.score) AS scored
    FROM calls c LEFT JOIN call_scores s ON s.call_id = c.id AND s.status = 'scored'
    WHERE c.experiment_variant_id = ANY(${variantIds}::bigint[])
    GROUP BY c.experiment_variant_id`.execute(db);
  return new Map(rows.filter((r) => r.average !== null).map((r) => [Number(r.variant_id), { average: Number(r.average), scored: Number(r.scored) }]));
}

export interface FieldFill { name: string; deliveries: number; filled_rate: number; true_rate: number | null }

/** Fields reported per variant: the first ones by name, so a payload with many keys stays a short answer. */
export const MAX_FIELDS = 30;

/**
 * How often each top-level field of the webhook payloads sent for a variant's calls was filled
 * (not null, not "") and, for booleans, true. Only first deliveries (not redeliveries) of calls.
 */
export async function fieldFills(db: Db, variantIds: number[]): Promise<Map<number, FieldFill[]>> {
  if (variantIds.length === 0) return new Map();
  const { rows } = await sql<{ variant_id: string; name: string; deliveries: string; filled: string; booleans: string; trues: string }>`
    SELECT c.experiment_variant_id AS variant_id, f.key AS name, count(*) AS deliveries,
           count(*) FILTER (WHERE f.value <> 'null'::jsonb AND f.value <> '""'::jsonb) AS filled,
           count(*) FILTER (WHERE jsonb_typeof(f.value) = 'boolean') AS booleans,
           count(*) FILTER (WHERE f.value = 'true'::jsonb) AS trues
    FROM webhook_deliveries d
    JOIN calls c ON c.id = d.call_id
    CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(d.payload::jsonb) = 'object' THEN d.payload::jsonb ELSE '{}'::jsonb END) AS f
    WHERE c.experiment_variant_id = ANY(${variantIds}::bigint[]) AND d.redelivery_of IS NULL AND d.kind = 'call'
    GROUP BY c.experiment_variant_id, f.key`.execute(db);
  const out = new Map<number, FieldFill[]>();
  for (const r of rows) {
    const list = out.get(Number(r.variant_id)) ?? [];
    const booleans = Number(r.booleans);
    list.push({ name: r.name, deliveries: Number(r.deliveries), filled_rate: Number(r.filled) / Number(r.deliveries), true_rate: booleans > 0 ? Number(r.trues) / booleans : null });
    out.set(Number(r.variant_id), list);
  }
  for (const [k, list] of out) out.set(k, list.sort((a, b) => (a.name < b.name ? -1 : 1)).slice(0, MAX_FIELDS));
  return out;
}

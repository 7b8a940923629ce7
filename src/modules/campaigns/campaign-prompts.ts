import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Db } from '../../db/connection.ts';

type Trx = Transaction<Database>;

/**
 * The prompt each campaign's assistant uses: the newest approved (or auto-approved)
 * prompt_history entry. campaign_data.prompt is only a fallback for campaigns with no
 * history at all (rows written before prompt history existed): once a campaign has
 * history, a sub-user's pending proposal must never reach a call. A null prompt is no prompt.
 */
export async function promptsFor(trx: Trx | Db, campaignIds: number[]): Promise<Map<number, string | null>> {
  if (campaignIds.length === 0) return new Map();
  const { rows } = await sql<{ id: number; prompt: string | null }>`
    SELECT cp.id,
      CASE WHEN EXISTS (SELECT 1 FROM prompt_history h WHERE h.campaign_id = cp.id)
        THEN (SELECT CASE jsonb_typeof(ph.prompt_data->'prompt')
                       WHEN 'string' THEN ph.prompt_data->>'prompt'
                       WHEN 'object' THEN (ph.prompt_data->'prompt')::text END
              FROM prompt_history ph
              WHERE ph.campaign_id = cp.id AND ph.status IN ('approved', 'auto_approved')
              ORDER BY ph.id DESC LIMIT 1)
        ELSE cp.campaign_data->>'prompt'
      END AS prompt
    FROM campaigns cp WHERE cp.id = ANY(${campaignIds}::bigint[])`.execute(trx);
  return new Map(rows.map((r) => [r.id, r.prompt]));
}

/**
 * The prompt_history entry in force for each campaign (the one promptsFor reads): calls keep it
 * (calls.prompt_history_id) so scores and experiments compare prompt versions. A campaign without
 * an approved entry is absent.
 */
export async function promptVersionsFor(trx: Trx | Db, campaignIds: number[]): Promise<Map<number, number>> {
  if (campaignIds.length === 0) return new Map();
  const { rows } = await sql<{ campaign_id: number; id: number }>`
    SELECT DISTINCT ON (campaign_id) campaign_id, id FROM prompt_history
    WHERE campaign_id = ANY(${campaignIds}::bigint[]) AND status IN ('approved', 'auto_approved')
    ORDER BY campaign_id, id DESC`.execute(trx);
  return new Map(rows.map((r) => [Number(r.campaign_id), Number(r.id)]));
}

/**
 * The prompt text of these prompt_history entries, whatever their status: a call uses the version
 * it recorded (calls.prompt_history_id; an experiment's variant may be a pending version), not
 * simply the campaign's latest. An object prompt is its JSON text, as promptsFor answers it.
 */
export async function promptsOfVersions(trx: Trx | Db, historyIds: number[]): Promise<Map<number, string | null>> {
  if (historyIds.length === 0) return new Map();
  const { rows } = await sql<{ id: number; prompt: string | null }>`
    SELECT id, CASE jsonb_typeof(prompt_data->'prompt')
                 WHEN 'string' THEN prompt_data->>'prompt'
                 WHEN 'object' THEN (prompt_data->'prompt')::text END AS prompt
    FROM prompt_history WHERE id = ANY(${[...new Set(historyIds)]}::bigint[])`.execute(trx);
  return new Map(rows.map((r) => [Number(r.id), r.prompt]));
}

/**
 * The prompt each call uses: its recorded version's, else (a campaign without prompt history)
 * the campaign's as promptsFor answers it.
 */
export async function promptsOfCalls(trx: Trx | Db, calls: { id: number; campaignId: number; promptHistoryId: number | null }[]): Promise<Map<number, string | null>> {
  const [versions, campaigns] = await Promise.all([
    promptsOfVersions(trx, calls.flatMap((c) => (c.promptHistoryId === null ? [] : [c.promptHistoryId]))),
    promptsFor(trx, [...new Set(calls.filter((c) => c.promptHistoryId === null).map((c) => c.campaignId))]),
  ]);
  return new Map(calls.map((c) => [c.id, c.promptHistoryId === null ? campaigns.get(c.campaignId) ?? null : versions.get(c.promptHistoryId) ?? null]));
}

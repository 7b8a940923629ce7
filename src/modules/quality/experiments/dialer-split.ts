import { sql, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Route } from '../../../voice/registry.ts';
import { assignVariant } from './assignment.ts';

/**
 * The experiments' side of a dialling round (round-writer.ts): one read of the running
 * experiments' variants of the round's campaigns, in the claim's transaction; no row is locked
 * (an experiment stopped meanwhile splits this round's calls at most). Each chosen contact
 * gets its variant (assignment.ts), the prompt version and the assistant its call uses.
 */

type Trx = Transaction<Database>;

export interface RoundVariant {
  id: number;
  experimentId: number;
  weight: number;
  kind: string;
  promptHistoryId: number | null;
  assistantId: number | null;
  /** An assistant variant's route, as it is now; null: the assistant is gone. */
  route: Route | null;
}

export async function runningVariantsFor(trx: Trx, campaignIds: number[]): Promise<Map<number, RoundVariant[]>> {
  if (campaignIds.length === 0) return new Map();
  const { rows } = await sql<{ id: string; experiment_id: string; campaign_id: string; weight: number; kind: string; prompt_history_id: string | null; assistant_id: string | null; provider: string | null; voice_connection_id: string | null }>`
    SELECT v.id, v.experiment_id, e.campaign_id, v.weight, v.kind, v.prompt_history_id, v.assistant_id, a.provider, a.voice_connection_id
    FROM experiments e
    JOIN experiment_variants v ON v.experiment_id = e.id
    LEFT JOIN assistants a ON a.id = v.assistant_id AND a.owner_id = e.owner_id
    WHERE e.status = 'running' AND e.campaign_id = ANY(${campaignIds}::bigint[])
    ORDER BY e.campaign_id, v.position`.execute(trx);
  const out = new Map<number, RoundVariant[]>();
  for (const r of rows) {
    const list = out.get(Number(r.campaign_id)) ?? [];
    list.push({
      id: Number(r.id), experimentId: Number(r.experiment_id), weight: r.weight, kind: r.kind,
      promptHistoryId: r.prompt_history_id === null ? null : Number(r.prompt_history_id), assistantId: r.assistant_id === null ? null : Number(r.assistant_id),
      route: r.provider === null ? null : { provider: r.provider, connectionId: r.voice_connection_id === null ? null : Number(r.voice_connection_id) },
    });
    out.set(Number(r.campaign_id), list);
  }
  return out;
}

export interface CallVariant {
  variantId: number | null;
  promptHistoryId: number | null;
  assistantId: number | null;
}

/**
 * What one contact's call uses. Without a running experiment: the campaign's prompt version in
 * force and its assistant. With one: the contact's variant; a prompt variant's version with the
 * campaign's assistant, an assistant variant's assistant with the control's version. An assistant
 * variant whose route no longer is the call's (its assistant moved, or the campaign's did) is
 * dialled as the control: the call's route, and so its pacing, stay the campaign's.
 */
export function callVariant(
  variants: RoundVariant[] | undefined, contactId: number,
  campaign: { version: number | null; assistantId: number | null; route: Route },
): CallVariant {
  if (!variants || variants.length === 0) return { variantId: null, promptHistoryId: campaign.version, assistantId: campaign.assistantId };
  const control = variants[0]!;
  let v = assignVariant(control.experimentId, contactId, variants);
  if (v.kind === 'assistant' && (v.route === null || v.route.provider !== campaign.route.provider || v.route.connectionId !== campaign.route.connectionId)) v = control;
  return {
    variantId: v.id,
    promptHistoryId: v.kind === 'prompt' ? v.promptHistoryId : control.promptHistoryId,
    assistantId: v.kind === 'assistant' ? v.assistantId : campaign.assistantId,
  };
}

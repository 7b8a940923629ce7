import { sql } from 'kysely';
import type { Db } from '../../../db/connection.ts';
import type { Experiment, Variant } from './experiments.schemas.ts';

/** All SQL for experiments and their variants. Every function takes a db handle or a transaction. */

export interface NewVariant {
  position: number;
  kind: Variant['kind'];
  label: string;
  weight: number;
  prompt_history_id: number | null;
  assistant_id: number | null;
}

export async function insertExperiment(db: Db, row: { owner_id: number; campaign_id: number; name: string; min_calls_per_variant: number; created_by_user_id: number; created_at: Date }, variants: NewVariant[]) {
  const { id } = await db.insertInto('experiments').values(row).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('experiment_variants').values(variants.map((v) => ({ ...v, experiment_id: id }))).execute();
  return Number(id);
}

async function withVariants(db: Db, rows: Omit<Experiment, 'variants'>[]): Promise<Experiment[]> {
  if (rows.length === 0) return [];
  const variants = await db.selectFrom('experiment_variants').selectAll().where('experiment_id', 'in', rows.map((r) => r.id)).orderBy('experiment_id').orderBy('position').execute();
  return rows.map((e) => {
    const own = variants.filter((v) => Number(v.experiment_id) === e.id);
    const total = own.reduce((s, v) => s + v.weight, 0);
    return {
      ...e,
      variants: own.map((v) => ({
        id: Number(v.id), position: v.position, kind: v.kind as Variant['kind'], label: v.label, weight: v.weight, share: v.weight / total,
        prompt_history_id: v.prompt_history_id === null ? null : Number(v.prompt_history_id), assistant_id: v.assistant_id === null ? null : Number(v.assistant_id),
      })),
    };
  });
}

const experimentColumns = ['id', 'campaign_id', 'name', 'status', 'min_calls_per_variant', 'created_at', 'started_at', 'stopped_at', 'promoted_variant_id', 'promoted_prompt_history_id', 'promoted_at'] as const;

const typed = (r: { id: number; campaign_id: number; status: string; promoted_variant_id: number | null; promoted_prompt_history_id: number | null } & Record<string, unknown>) => ({
  ...r, id: Number(r.id), campaign_id: Number(r.campaign_id), status: r.status as Experiment['status'],
  promoted_variant_id: r.promoted_variant_id === null ? null : Number(r.promoted_variant_id),
  promoted_prompt_history_id: r.promoted_prompt_history_id === null ? null : Number(r.promoted_prompt_history_id),
}) as Omit<Experiment, 'variants'>;

export async function listExperiments(db: Db, campaignId: number): Promise<Experiment[]> {
  const rows = await db.selectFrom('experiments').select(experimentColumns).where('campaign_id', '=', campaignId).orderBy('id', 'desc').limit(100).execute();
  return withVariants(db, rows.map(typed));
}

/** The experiment of this campaign; `lock` takes its row for the change that follows. */
export async function findExperiment(db: Db, campaignId: number, experimentId: number, lock = false): Promise<Experiment | undefined> {
  const row = await db.selectFrom('experiments').select(experimentColumns).where('campaign_id', '=', campaignId).where('id', '=', experimentId)
    .$if(lock, (q) => q.forUpdate()).executeTakeFirst();
  return row && (await withVariants(db, [typed(row)]))[0];
}

export const runningExperimentOf = (db: Db, campaignId: number) =>
  db.selectFrom('experiments').select('id').where('campaign_id', '=', campaignId).where('status', '=', 'running').executeTakeFirst();

export async function markStarted(db: Db, experimentId: number, controlVersion: number | null, at: Date) {
  await db.updateTable('experiment_variants').set({ prompt_history_id: controlVersion }).where('experiment_id', '=', experimentId).where('position', '=', 0).execute();
  await db.updateTable('experiments').set({ status: 'running', started_at: at }).where('id', '=', experimentId).execute();
}

export async function markStopped(db: Db, experimentId: number, at: Date) {
  await db.updateTable('experiments').set({ status: 'stopped', stopped_at: sql<Date>`coalesce(stopped_at, ${at}::timestamptz)` }).where('id', '=', experimentId).execute();
}

export async function markPromoted(db: Db, experimentId: number, variantId: number, historyId: number | null, at: Date) {
  await db.updateTable('experiments').set({ promoted_variant_id: variantId, promoted_prompt_history_id: historyId, promoted_at: at }).where('id', '=', experimentId).execute();
}

/** The prompt entries of this campaign with these ids: their status (a variant may not use a rejected one). */
export async function promptEntriesOf(db: Db, campaignId: number, ids: number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db.selectFrom('prompt_history').select(['id', 'status']).where('campaign_id', '=', campaignId).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), r.status]));
}

/** The account's assistants with these ids and their voice route. */
export async function assistantRoutesOf(db: Db, ownerId: number, ids: number[]) {
  if (ids.length === 0) return new Map<number, { provider: string; connectionId: number | null }>();
  const rows = await db.selectFrom('assistants').select(['id', 'provider', 'voice_connection_id']).where('owner_id', '=', ownerId).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), { provider: r.provider, connectionId: r.voice_connection_id === null ? null : Number(r.voice_connection_id) }]));
}

/** A prompt entry the owner wrote and decided at once: an experiment's new text (pending) or its promoted winner (approved). */
export async function insertOwnerPrompt(db: Db, input: { campaignId: number; prompt: unknown; status: 'pending' | 'approved'; userId: number; at: Date; comment: string | null }) {
  const approved = input.status === 'approved';
  const { id } = await db.insertInto('prompt_history').values({
    campaign_id: input.campaignId, prompt_data: JSON.stringify({ prompt: input.prompt ?? null }), status: input.status, created_at: input.at,
    created_by_user_id: input.userId, created_by_sub_user_id: null,
    approved_by_user_id: approved ? input.userId : null, approved_at: approved ? input.at : null, approval_comment: approved ? input.comment : null,
  }).returning('id').executeTakeFirstOrThrow();
  return Number(id);
}

/** The prompt value stored in an entry (a string or an object, as prompt_history keeps it). */
export async function promptValueOf(db: Db, historyId: number): Promise<unknown> {
  const row = await db.selectFrom('prompt_history').select('prompt_data').where('id', '=', historyId).executeTakeFirst();
  return (row?.prompt_data as { prompt?: unknown } | undefined)?.prompt ?? null;
}

import { sql, type Transaction } from 'kysely';
import type { Db } from '../../../db/connection.ts';
import type { Database } from '../../../db/schema.ts';

/**
 * The call_scores rows as the scoring job's queue (migration 0044). A row is written pending in
 * the transaction that ends the call (enqueueCallScores), only for a campaign whose card is on;
 * it becomes due once the call's webhook deliveries are no longer pending (sent, failed or
 * skipped: the customer's webhook and its extraction went first), or after WEBHOOK_GRACE_MINUTES
 * whatever they do. Claims use SKIP LOCKED and a lease; a lease that ran out (a crashed
 * process) is claimed again, and attempts (counted at the claim) bound how often.
 */

export const WEBHOOK_GRACE_MINUTES = 15;

/**
 * The answers without the judge's reasons (they may quote the person): what a person's erasure
 * and the retention purge leave of a call's score. The answers and the score stay: they are
 * figures about the agent, not the person's words.
 */
export const FORGET_REASONS = sql`(SELECT jsonb_object_agg(key, value || '{"reason": null}'::jsonb) FROM jsonb_each(answers))`;
export const MAX_ATTEMPTS = 3;

/** One INSERT per batch of ended calls (call-finish.ts); a campaign without an enabled card writes nothing. */
export async function enqueueCallScores(trx: Transaction<Database>, callIds: number[]): Promise<void> {
  if (callIds.length === 0) return;
  await sql`
    INSERT INTO call_scores (call_id, owner_id, campaign_id, prompt_history_id, status)
    SELECT c.id, c.owner_id, c.campaign_id, c.prompt_history_id, 'pending'
    FROM calls c JOIN campaign_scorecards s ON s.campaign_id = c.campaign_id AND s.enabled
    WHERE c.id = ANY(${callIds}::bigint[]) AND c.status NOT IN ('new', 'in progress')
    ON CONFLICT (call_id) DO NOTHING`.execute(trx);
}

export interface ClaimedScore {
  call_id: number;
  campaign_id: number;
  attempts: number;
}

export async function claimScores(db: Db, input: { workerId: string; limit: number; leaseSeconds: number }): Promise<ClaimedScore[]> {
  const { rows } = await sql<ClaimedScore>`
    UPDATE call_scores s
    SET claimed_by = ${input.workerId}, lease_until = now() + make_interval(secs => ${input.leaseSeconds}), attempts = s.attempts + 1
    WHERE s.call_id = ANY (ARRAY(
      SELECT q.call_id FROM call_scores q
      WHERE q.status = 'pending' AND q.due_at <= now() AND q.attempts < ${MAX_ATTEMPTS} AND (q.claimed_by IS NULL OR q.lease_until < now())
        AND (q.created_at < now() - make_interval(mins => ${WEBHOOK_GRACE_MINUTES})
             OR NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.call_id = q.call_id AND d.status = 'pending'))
      ORDER BY q.due_at
      LIMIT ${input.limit}
      FOR UPDATE SKIP LOCKED
    ))
    RETURNING s.call_id, s.campaign_id, s.attempts`.execute(db);
  return rows.map((r) => ({ call_id: Number(r.call_id), campaign_id: Number(r.campaign_id), attempts: r.attempts }));
}

export interface ScoreOutcome {
  status: 'scored' | 'failed' | 'needs_model' | 'no_transcript';
  score?: number | null;
  answers?: unknown;
  tags?: string[];
  method?: string | null;
  error?: string | null;
  card?: unknown;
}

/** Writes the claimed row's outcome; a row whose lease another worker took since is left alone. */
export async function completeScore(db: Db, workerId: string, callId: number, o: ScoreOutcome): Promise<void> {
  await db.updateTable('call_scores').set({
    status: o.status, score: o.score ?? null, answers: o.answers === undefined ? null : JSON.stringify(o.answers), tags: o.tags ?? [],
    method: o.method ?? null, error: o.error ?? null, card: o.card === undefined ? null : JSON.stringify(o.card),
    scored_at: sql<Date>`now()`, claimed_by: null, lease_until: null,
  }).where('call_id', '=', callId).where('claimed_by', '=', workerId).execute();
}

/** A failed attempt: pending again after a back-off (1, 4 minutes), failed for good after MAX_ATTEMPTS. */
export async function retryOrFail(db: Db, workerId: string, callId: number, error: string): Promise<void> {
  await sql`
    UPDATE call_scores SET
      status = CASE WHEN attempts >= ${MAX_ATTEMPTS} THEN 'failed' ELSE 'pending' END,
      due_at = now() + make_interval(mins => power(4, attempts - 1)::int),
      scored_at = CASE WHEN attempts >= ${MAX_ATTEMPTS} THEN now() END,
      error = ${error.slice(0, 1000)}, claimed_by = NULL, lease_until = NULL
    WHERE call_id = ${callId} AND claimed_by = ${workerId}`.execute(db);
}

/** Claimed but not started: back at once, the attempt not counted. */
export async function releaseScores(db: Db, workerId: string, callIds: number[]): Promise<void> {
  if (callIds.length === 0) return;
  await sql`
    UPDATE call_scores SET claimed_by = NULL, lease_until = NULL, attempts = greatest(0, attempts - 1)
    WHERE call_id = ANY(${callIds}::bigint[]) AND claimed_by = ${workerId} AND status = 'pending'`.execute(db);
}

/** What the judge reads: the call's (stored, already redacted) transcript and the API's call context. */
export async function loadCallForScoring(db: Db, callId: number) {
  return db.selectFrom('calls').select([
    'id', 'campaign_id', 'status', 'from_number', 'to_number', 'call_duration', 'start_time', 'end_time', 'call_type', 'action_status', 'call_data', 'record_url',
  ]).where('id', '=', callId).executeTakeFirst();
}

/** Rows whose last allowed attempt's process died (lease ran out): failed, so they do not stay pending for ever. */
export async function sweepAbandonedScores(db: Db): Promise<number> {
  const { rows } = await sql<{ call_id: number }>`
    UPDATE call_scores SET status = 'failed', scored_at = now(), claimed_by = NULL, lease_until = NULL,
      error = coalesce(error, 'the scoring process stopped during the last attempt')
    WHERE status = 'pending' AND attempts >= ${MAX_ATTEMPTS} AND lease_until < now() RETURNING call_id`.execute(db);
  return rows.length;
}

/** How far back calls left needs_model are judged once a process starts with a model (older ones stay as they are: judging them costs the model's fee). */
export const RESCORE_NEEDS_MODEL_DAYS = 7;

/**
 * Calls of the last RESCORE_NEEDS_MODEL_DAYS that were left needs_model (no LLM then) are queued
 * again: a process started with a model judges them. Run once per start (a scan of call_scores).
 */
export async function requeueNeedsModel(db: Db): Promise<number> {
  const { rows } = await sql<{ call_id: number }>`
    UPDATE call_scores SET status = 'pending', attempts = 0, due_at = now(), error = NULL, scored_at = NULL, card = NULL, claimed_by = NULL, lease_until = NULL
    WHERE status = 'needs_model' AND created_at > now() - make_interval(days => ${RESCORE_NEEDS_MODEL_DAYS}) RETURNING call_id`.execute(db);
  return rows.length;
}

import { sql } from 'kysely';
import type { Db } from '../../../db/connection.ts';
import type { EndedBy, RunCost, RunTurn, Verdict } from './run-types.ts';

/** The claim-worker's SQL over test_scenario_runs: claim (SKIP LOCKED + lease), finish, fail, release. */
export const SCENARIO_RUNS_CHANNEL = 'scenario_runs';

export interface ClaimedRun {
  id: number;
  owner_id: number;
  campaign_id: number;
  scenario_id: number;
  prompt_history_id: number | null;
  contact_data: Record<string, unknown> | null;
  /** The scenario, read with the claim. */
  persona: unknown;
  criteria: unknown;
  template: string | null;
  max_turns: number;
}

/**
 * Claims up to `limit` queued runs, oldest first, and any running one whose lease ran out (its
 * process died mid-run: it is played again from the start).
 */
export async function claimRuns(db: Db, workerId: string, limit: number, leaseMs: number): Promise<ClaimedRun[]> {
  if (limit <= 0) return [];
  const { rows } = await sql<ClaimedRun>`
    UPDATE test_scenario_runs r
       SET status = 'running', locked_by = ${workerId}, locked_at = now(), started_at = now()
      FROM test_scenarios s
     WHERE s.id = r.scenario_id AND r.id IN (
       SELECT id FROM test_scenario_runs
        WHERE status = 'queued' OR (status = 'running' AND locked_at < now() - make_interval(secs => ${leaseMs / 1000}))
        ORDER BY id
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
    RETURNING r.id, r.owner_id, r.campaign_id, r.scenario_id, r.prompt_history_id, r.contact_data, s.persona, s.criteria, s.template, s.max_turns`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id), owner_id: Number(r.owner_id), campaign_id: Number(r.campaign_id), scenario_id: Number(r.scenario_id), prompt_history_id: r.prompt_history_id === null ? null : Number(r.prompt_history_id) }));
}

export interface FinishedRun {
  status: 'passed' | 'failed' | 'inconclusive' | 'error';
  judge: 'llm' | 'offline' | null;
  promptText: string | null;
  systemPromptSource: string | null;
  transcript: RunTurn[];
  verdicts: Verdict[];
  endedBy: EndedBy | null;
  cost: RunCost;
  durationMs: number;
  error: string | null;
}

/** Stores a run's outcome; guarded by the claimer, so a run taken over by another process is not overwritten. */
export async function finishRun(db: Db, id: number, workerId: string, r: FinishedRun): Promise<boolean> {
  const done = await db.updateTable('test_scenario_runs').set({
    status: r.status, judge: r.judge, prompt_text: r.promptText, system_prompt_source: r.systemPromptSource,
    transcript: JSON.stringify(r.transcript), verdicts: JSON.stringify(r.verdicts), ended_by: r.endedBy,
    llm_requests: r.cost.llm_requests, prompt_tokens: r.cost.prompt_tokens, completion_tokens: r.cost.completion_tokens,
    duration_ms: r.durationMs, error: r.error, locked_by: null, locked_at: null, finished_at: sql<Date>`now()`,
  }).where('id', '=', id).where('locked_by', '=', workerId).where('status', '=', 'running').executeTakeFirst();
  return Number(done.numUpdatedRows) > 0;
}

/** Several runs' outcomes in one transaction (one commit), as the claim-worker hands them over. */
export async function finishRuns(db: Db, workerId: string, outcomes: { id: number; result: FinishedRun }[]): Promise<void> {
  if (outcomes.length === 1) return void (await finishRun(db, outcomes[0]!.id, workerId, outcomes[0]!.result));
  await db.transaction().execute(async (trx) => {
    for (const { id, result } of outcomes) await finishRun(trx, id, workerId, result);
  });
}

export async function failRun(db: Db, id: number, workerId: string, message: string): Promise<void> {
  await db.updateTable('test_scenario_runs').set({ status: 'error', error: message.slice(0, 1000), locked_by: null, locked_at: null, finished_at: sql<Date>`now()` })
    .where('id', '=', id).where('locked_by', '=', workerId).where('status', '=', 'running').execute();
}

/** Claimed but not started (the worker stops): queued again for whoever claims next. */
export async function releaseRuns(db: Db, workerId: string, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('test_scenario_runs').set({ status: 'queued', locked_by: null, locked_at: null, started_at: null })
    .where('id', 'in', ids).where('locked_by', '=', workerId).where('status', '=', 'running').execute();
}

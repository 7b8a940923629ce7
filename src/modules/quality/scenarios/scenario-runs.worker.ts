import { createClaimWorker, defaultWorkerId, UNFINISHED, type ClaimWorker } from '../../../claim-worker.ts';
import type { Deps } from '../../../deps.ts';
import { claimRuns, failRun, finishRuns, releaseRuns, SCENARIO_RUNS_CHANNEL, type ClaimedRun, type FinishedRun } from './run-claims.ts';
import { runScenario } from './run-scenario.ts';

/**
 * The scenario runner: a claim-worker (src/claim-worker.ts) over test_scenario_runs, at most
 * SCENARIO_RUN_CONCURRENCY runs at once in this process (each run holds the model for its whole
 * conversation). Claims are SKIP LOCKED, so any number of processes run it; a run whose process
 * died is claimed again once its lease (the time limit and a margin) runs out.
 *
 * A run is mostly waiting for the model, so the database's part is kept off its slot: up to
 * `concurrency` more runs are claimed ahead, several per claim (a freed slot starts the next at
 * once, not after a claim's round trip), and results are written together, one transaction per event-loop turn
 * (the claim-worker's batched completion). Runs claimed ahead show as running; at most
 * `concurrency` of them talk to the model at once.
 */
export interface ScenarioRunWorkerOptions {
  workerId?: string;
  concurrency?: number;
  pollMs?: number;
}

export function createScenarioRunWorker(deps: Deps, options: ScenarioRunWorkerOptions = {}): ClaimWorker {
  const workerId = options.workerId ?? defaultWorkerId('scenario-runs');
  const leaseMs = deps.config.SCENARIO_RUN_TIMEOUT_SECONDS * 1000 + 120_000;
  let stopping = new AbortController();
  const worker = createClaimWorker<ClaimedRun, { id: number; result: FinishedRun }>({
    name: 'scenario-runs',
    log: deps.log.child({ worker: 'scenario-runs' }),
    workerId,
    tickMs: options.pollMs ?? Math.max(deps.config.DIALER_TICK_MS, 1000),
    concurrency: options.concurrency ?? deps.config.SCENARIO_RUN_CONCURRENCY,
    listen: { database: deps.database, channel: SCENARIO_RUNS_CHANNEL },
    wakeOn: (wake) => deps.jobWakes.onWake(SCENARIO_RUNS_CHANNEL, wake),
    messages: { failure: 'scenario run failed' },
    onStart: () => void (stopping = new AbortController()),
    pacing: {
      // Refilled in batches before the claimed ones run out: once half the slots' worth is left, up to twice the slots.
      claimLimit: ({ queued, inFlight, concurrency }) => (queued > concurrency / 2 ? 0 : Math.max(0, 2 * concurrency - inFlight - queued)),
      finished: () => true,
    },
    source: {
      claim: (id, limit) => claimRuns(deps.db, id, limit, leaseMs),
      async process(run, session) {
        const result = await runScenario(deps, run, stopping.signal);
        // Stopped mid-conversation: queued again rather than judged on half a conversation.
        if (session.stopped && (result.endedBy === 'time_limit' || result.status === 'error')) return UNFINISHED;
        return { id: run.id, result };
      },
      complete: (id, outcomes) => finishRuns(deps.db, id, outcomes),
      release: (id, runs) => releaseRuns(deps.db, id, runs.map((r) => r.id)),
      fail: (id, run, error) => failRun(deps.db, run.id, id, (error as Error).message ?? String(error)),
    },
  });
  // A stop aborts the conversations in flight (they are handed back), rather than waiting out their time limit.
  return { ...worker, stop: () => { stopping.abort(); return worker.stop(); } };
}

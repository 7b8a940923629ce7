import { createClaimWorker, type ClaimWorker } from '../../../claim-worker.ts';
import type { Deps } from '../../../deps.ts';
import { ExtractionError } from '../../../extraction/extractor.ts';
import { transcriptOf } from '../../webhooks/delivery.service.ts';
import { redactionAt } from '../../privacy/redaction-policy/call-redaction.ts';
import { claimScores, completeScore, loadCallForScoring, releaseScores, requeueNeedsModel, retryOrFail, sweepAbandonedScores, type ClaimedScore, type ScoreOutcome } from './call-scores.repository.ts';
import { readScorecard } from './scorecard.repository.ts';
import { judgeSchemaOf, scoreOf } from './scorecard-rules.ts';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/**
 * Judges finished calls on their campaign's scorecard (claim-worker, src/claim-worker.ts): the
 * LLM answers through the extraction pipeline at the budget's `later` priority, so a webhook
 * extraction waiting for a slot always goes first. Without an LLM the row says needs_model: the
 * offline rules cannot judge a conversation, and no score is made up.
 */
export async function scoreCall(deps: Deps, callId: number, signal?: AbortSignal): Promise<ScoreOutcome> {
  const call = await loadCallForScoring(deps.db, callId);
  if (!call) return { status: 'failed', error: 'the call no longer exists' };
  const card = await readScorecard(deps.db, call.campaign_id);
  const judged = { criteria: card.criteria, tags: card.tags };
  const callData = (call.call_data ?? {}) as Record<string, unknown>;
  const transcript = transcriptOf(callData);
  if (transcript.length === 0) return { status: 'no_transcript', card: judged, error: 'the call has no transcript to judge' };
  if (deps.extractor.name === 'offline') {
    return { status: 'needs_model', card: judged, error: 'no LLM is configured (LLM_BASE_URL): a scorecard is judged by a model, and no score is guessed without one' };
  }
  const { schema, instructions } = judgeSchemaOf(judged);
  const result = await deps.extractor.extract({
    schema, instructions, transcript, contact: {}, priority: 'later', ...(signal ? { signal } : {}),
    call: {
      from_number: call.from_number, to_number: call.to_number, call_duration: call.call_duration, start_time: iso(call.start_time),
      end_time: iso(call.end_time), call_type: call.call_type, action_status: call.action_status, status: call.status,
    },
  });
  const { answers, tags, score } = scoreOf(judged, result.payload);
  // The reasons may quote the person: kept under the call's redaction rule for extracted payloads.
  const redactor = await redactionAt(deps.db, callId, 'payload');
  if (redactor) for (const a of Object.values(answers)) if (a.reason) a.reason = redactor.redact(a.reason).text;
  return { status: 'scored', score, answers, tags, method: result.method, card: judged };
}

export function createScoringWorker(deps: Deps, options: { pollMs?: number; leaseSeconds?: number; workerId?: string } = {}): ClaimWorker {
  const log = deps.log.child({ worker: 'call-scoring' });
  const leaseSeconds = options.leaseSeconds ?? 300;
  // As many as the budget lets scoring hold; more would only wait in the budget with a lease running.
  const concurrency = Math.max(1, Math.floor(deps.config.LLM_CONCURRENCY / 2));
  const worker: ClaimWorker = createClaimWorker<ClaimedScore>({
    name: 'call-scoring',
    log,
    ...(options.workerId ? { workerId: options.workerId } : {}),
    tickMs: options.pollMs ?? deps.config.DIALER_TICK_MS,
    concurrency,
    messages: { failure: 'call scoring failed' },
    // A model configured since those calls ended (LLM_BASE_URL set and the service restarted): their scores come now.
    onStart: () => {
      if (deps.extractor.name === 'offline') return;
      requeueNeedsModel(deps.db)
        .then((n) => { if (n > 0) { log.info({ calls: n }, 'calls left without a score for want of a model are judged now'); worker.wake(); } })
        .catch((error: unknown) => log.error({ err: error }, 'could not queue the calls left without a score for want of a model'));
    },
    source: {
      claim: (workerId, limit) => claimScores(deps.db, { workerId, limit, leaseSeconds }),
      process: async (job, session) => {
        try {
          await completeScore(deps.db, session.workerId, job.call_id, await scoreCall(deps, job.call_id));
        } catch (error) {
          if (!(error instanceof ExtractionError)) throw error;
          // The judge failed (LLM down, unusable answer): tried again later, failed for good after the last attempt.
          await retryOrFail(deps.db, session.workerId, job.call_id, error.message);
        }
      },
      release: (workerId, jobs) => releaseScores(deps.db, workerId, jobs.map((j) => j.call_id)),
      fail: (workerId, job, error) => retryOrFail(deps.db, workerId, job.call_id, `internal error: ${(error as Error).message}`),
      sweep: { everyMs: 60_000, run: () => sweepAbandonedScores(deps.db), message: 'failed call scores whose process stopped during the last attempt' },
    },
  });
  return worker;
}

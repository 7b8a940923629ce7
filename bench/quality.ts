/**
 * Test scenario runs per minute (issue 28): RUNS runs of one scenario played by the scenario
 * runner (the claim-worker, SCENARIO_RUN_CONCURRENCY at once: claim, plan, agent engine, persona,
 * judge through the extractor, redaction, the stored result) against a fake OpenAI-compatible
 * server that answers at once. Baseline, in the same run and against the same fake: the same
 * conversations as bare HTTP calls (the same LLM round trips: 2 persona turns, 2 streamed agent
 * turns, 1 judge call, the same parallelism), no database. The ratio says what the orchestration
 * costs; goal >= 0.8.
 *
 *   npm run bench:quality                     PGlite (embedded), BENCH_RUNS=300, concurrency 4
 *   BENCH_DATABASE_URL=postgres://... npm run bench:quality     on PostgreSQL
 *   BENCH_LLM_LATENCY_MS=300 npm run bench:quality    the fake waits this long before each answer's first token
 *                                                     (a hosted model's time to first token), for both paths alike
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { closeDeps, createDeps } from '../src/deps.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { createScenarioRunWorker } from '../src/modules/quality/scenarios/scenario-runs.worker.ts';
import { createScenario, queueRun } from '../src/modules/quality/scenarios/scenarios.service.ts';
import { PERSONA_PROMPT_START } from '../src/modules/quality/scenarios/persona.ts';
import { startFakeStreamingLlm, type SeenRequest } from '../test/fakes/llm-stream.ts';
import { createBenchDatabase } from './support/bench-db.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
// The two paths alternate in ROUNDS rounds of RUNS / ROUNDS each, so a busy machine slows both alike.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const LATENCY_MS = Number(process.env.BENCH_LLM_LATENCY_MS ?? 0);
const PROMPT = 'You are Ava from Acme Solar calling {{contact.name}}. If the person is busy, offer a callback time.';

type Body = SeenRequest['body'];
const lastUser = (body: Body) => String(([...body.messages].reverse().find((m) => m.role === 'user') as { content?: unknown } | undefined)?.content ?? '');
const JUDGE = JSON.stringify({ criterion_1: true, criterion_1_reason: 'offered tomorrow at 10', criterion_2: true, criterion_2_reason: 'said goodbye' });
const llm = await startFakeStreamingLlm((body) => {
  if (body.response_format) return { tokens: [JUDGE] };
  if (String((body.messages[0] as { content: unknown }).content).startsWith(PERSONA_PROMPT_START)) {
    return { tokens: [body.messages.some((m) => m.role === 'assistant') ? 'Can you call me back tomorrow?' : 'Hello? I am busy.'] };
  }
  if (!/back/.test(lastUser(body))) return { tokens: ['Hi Dana, ', 'this is Ava. ', 'Is now a good time?'] };
  return {
    tokens: ['Of course, ', 'tomorrow at 10. ', 'Goodbye!'],
    toolCalls: [{ name: 'mark_outcome', arguments: { outcome: 'scheduled', time: '2026-12-01T10:00:00Z' } }, { name: 'end_call', arguments: { reason: 'callback' } }],
  };
}, { firstTokenDelayMs: LATENCY_MS });

/** One conversation's LLM round trips as bare HTTP calls: persona, agent (streamed), persona, agent, judge. */
async function bareConversation(): Promise<void> {
  const post = async (body: object) => {
    const res = await fetch(`${llm.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await res.text();
  };
  const persona = { role: 'system', content: `${PERSONA_PROMPT_START}. Busy nurse.` };
  const agent = { role: 'system', content: PROMPT };
  await post({ model: 'bench', messages: [persona, { role: 'user', content: '(pick up)' }] });
  await post({ model: 'bench', stream: true, stream_options: { include_usage: true }, tools: [], messages: [agent, { role: 'user', content: 'Hello? I am busy.' }] });
  await post({ model: 'bench', messages: [persona, { role: 'user', content: 'Hi Dana' }, { role: 'assistant', content: 'Hello?' }] });
  await post({ model: 'bench', stream: true, stream_options: { include_usage: true }, tools: [], messages: [agent, { role: 'user', content: 'call me back' }] });
  await post({ model: 'bench', response_format: { type: 'json_schema', json_schema: { name: 'webhook_payload', strict: true, schema: {} } }, messages: [{ role: 'system', content: 'judge' }, { role: 'user', content: 'transcript' }] });
}

async function baseline(runs: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < runs) await bareConversation();
  }));
  return performance.now() - started;
}

const pg = process.env.BENCH_DATABASE_URL ? await createBenchDatabase('bench_quality') : null;
const dataDir = mkdtempSync(join(tmpdir(), 'vc-bench-quality-'));
const config = loadConfig({
  DATABASE_URL: pg?.url ?? '', DATA_DIR: dataDir, SECRET_KEY: 'bench-secret-key-0123456789-0123456789-abcdef', LOG_LEVEL: 'silent',
  LLM_BASE_URL: llm.url, LLM_MODEL: 'bench', SCENARIO_RUN_CONCURRENCY: String(CONCURRENCY), SCENARIO_RUNS_QUEUED_MAX: String(RUNS * 2),
});
const deps = await createDeps(config);
try {
  await migrateToLatest(deps.db);
  const user = await createUser(deps.db, { email: `bench-${Date.now()}@example.com`, password: 'benchmark pass' });
  const principal = { kind: 'user' as const, userId: user.id, ownerId: user.id, isSuperuser: false };
  const { rows: [campaign] } = await sql<{ id: number }>`
    INSERT INTO campaigns (owner_id, title, campaign_type, campaign_data) VALUES (${user.id}, 'Bench', 'Outbound', ${JSON.stringify({ prompt: PROMPT })}::jsonb) RETURNING id`.execute(deps.db);
  const scenario = await createScenario(deps.db, principal, campaign!.id, {
    name: 'Busy', persona: { who: 'A busy nurse', goal: 'Be called back', style: 'Hurried', language: 'English' },
    criteria: ['The agent offers a callback time', 'The agent ends the call politely'], contact_data: { name: 'Dana' },
  });
  const open = async () => Number((await sql<{ n: number }>`SELECT count(*) AS n FROM test_scenario_runs WHERE status IN ('queued', 'running')`.execute(deps.db)).rows[0]!.n);

  async function service(runs: number): Promise<number> {
    for (let i = 0; i < runs; i++) await queueRun(deps, principal, campaign!.id, scenario.id, {});
    const worker = createScenarioRunWorker(deps, { pollMs: 1000 });
    const started = performance.now();
    worker.start();
    while ((await open()) > 0) await new Promise((r) => setTimeout(r, 25));
    const ms = performance.now() - started;
    await worker.stop();
    return ms;
  }

  // Warm-up of both paths (JIT, connections, plans).
  const WARMUP = Math.min(20, RUNS);
  await service(WARMUP);
  await baseline(WARMUP);
  const perRound = Math.max(1, Math.round(RUNS / ROUNDS));
  let serviceMs = 0;
  let bareMs = 0;
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const s = await service(perRound);
    const b = await baseline(perRound);
    serviceMs += s;
    bareMs += b;
    ratios.push(b / s);
  }
  const total = perRound * ROUNDS;
  const { rows: [check] } = await sql<{ passed: number; requests: number }>`
    SELECT count(*) FILTER (WHERE status = 'passed') AS passed, sum(llm_requests) AS requests FROM test_scenario_runs`.execute(deps.db);
  const perMinute = (ms: number) => (total / ms) * 60_000;
  const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
  console.log(`database: ${pg ? 'PostgreSQL' : 'PGlite (embedded)'}; ${total} runs in ${ROUNDS} rounds, ${CONCURRENCY} at once; each 5 LLM round trips (2 persona, 2 agent, 1 judge); the fake answers after ${LATENCY_MS} ms`);
  console.log(`runs passed: ${Number(check!.passed)} of ${total + WARMUP} (LLM requests stored: ${Number(check!.requests)})`);
  console.log(`scenario runner: ${perMinute(serviceMs).toFixed(0)} runs/min (${(serviceMs / total).toFixed(2)} ms a run)`);
  console.log(`bare HTTP calls: ${perMinute(bareMs).toFixed(0)} conversations/min (${(bareMs / total).toFixed(2)} ms a conversation)`);
  console.log(`ratio per round (runner / bare): ${ratios.map((r) => r.toFixed(2)).join(' ')}`);
  console.log(`ratio (runner / bare): ${(bareMs / serviceMs).toFixed(2)} overall, ${median.toFixed(2)} median of rounds  (goal >= 0.8)`);
} finally {
  await closeDeps(deps);
  await llm.close();
  await pg?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}

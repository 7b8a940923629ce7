/**
 * Agent latency benchmark (issue 15): the time from a ConversationRelay `prompt` message to the
 * first `text` token our agent sends back, over TURNS turns on one call, through the whole
 * service (the relay socket at /api/v1/voice/twilio/relay, its signature check done once at the
 * handshake, the session, the streaming chat-completions request to a fake OpenAI-compatible
 * server that sends its first token at once). Baseline, in the same run and process: a bare
 * WebSocket server that answers the same prompt with a `text` message at once. The agent's
 * cost is the difference. Goal: under 5 ms at the median and 20 ms at p99.
 *
 *   npm run bench:agent              200 turns
 *   BENCH_TURNS=1000                 more turns
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import WebSocket, { WebSocketServer } from 'ws';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { closeDeps, createDeps } from '../src/deps.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { twilioSignature } from '../src/voice/providers/twilio/twilio-signature.ts';
import { startFakeStreamingLlm } from '../test/fakes/llm-stream.ts';

const TURNS = Number(process.env.BENCH_TURNS ?? 200);
const TOKEN = 'bench-twilio-auth-token';
const WARMUP = 20;

const llm = await startFakeStreamingLlm(() => ({ tokens: ['Sure', ',', ' tell', ' me', ' more.'] }));
const dataDir = mkdtempSync(join(tmpdir(), 'vc-bench-agent-'));
const config = loadConfig({
  DATABASE_URL: '', DATA_DIR: dataDir, SECRET_KEY: 'bench-secret-key-0123456789-0123456789-abcdef', LOG_LEVEL: 'silent',
  TWILIO_ACCOUNT_SID: `AC${'c3'.repeat(16)}`, TWILIO_AUTH_TOKEN: TOKEN, PUBLIC_BASE_URL: 'http://127.0.0.1:9', LLM_BASE_URL: llm.url, LLM_MODEL: 'bench',
});
const deps = await createDeps(config);
const app = await buildApp(deps, { logger: false });
const echo = new WebSocketServer({ port: 0, host: '127.0.0.1' });
echo.on('connection', (ws) => ws.on('message', () => ws.send(JSON.stringify({ type: 'text', token: 'Sure', last: false }))));

/** Sends `prompt` TURNS times on `ws`, timing each until the first non-empty text token; waits for `ready` between turns. */
async function timeTurns(ws: WebSocket, turnDone: (m: { type?: string; token?: string; last?: boolean }) => boolean): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < TURNS + WARMUP; i++) {
    const prompt = JSON.stringify({ type: 'prompt', voicePrompt: `Tell me about option ${i}.`, lang: 'en-US', last: true });
    let first = 0;
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const onMessage = (data: WebSocket.RawData) => {
        const m = JSON.parse(data.toString()) as { type?: string; token?: string; last?: boolean };
        if (!first && m.type === 'text' && m.token) first = performance.now();
        if (turnDone(m)) {
          ws.off('message', onMessage);
          resolve();
        }
      };
      ws.on('message', onMessage);
      ws.send(prompt);
    });
    if (i >= WARMUP) times.push(first - started);
  }
  return times;
}

const open = (url: string, headers: Record<string, string> = {}) => new Promise<WebSocket>((resolve, reject) => {
  const ws = new WebSocket(url, { headers });
  ws.once('open', () => resolve(ws));
  ws.once('error', reject);
});
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

try {
  await migrateToLatest(deps.db);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  (config as { PUBLIC_BASE_URL?: string }).PUBLIC_BASE_URL = baseUrl;
  const user = await createUser(deps.db, { email: `bench-${Date.now()}@example.com`, password: 'benchmark pass' });
  const { rows: [call] } = await sql<{ id: number }>`
    WITH cp AS (INSERT INTO campaigns (owner_id, title, campaign_type) VALUES (${user.id}, 'Bench', 'Outbound') RETURNING id),
    ct AS (INSERT INTO contacts (owner_id, campaign_id, phone_number, status) SELECT ${user.id}, cp.id, '+12125550101', 'in progress' FROM cp RETURNING id, campaign_id)
    INSERT INTO calls (owner_id, campaign_id, contact_id, status, to_number, start_time, call_type, provider)
    SELECT ${user.id}, ct.campaign_id, ct.id, 'in progress', '+12125550101', now(), 'outbound', 'twilio' FROM ct RETURNING id`.execute(deps.db);
  const relayUrl = `${baseUrl.replace('http', 'ws')}/api/v1/voice/twilio/relay?call=${call!.id}`;
  const agent = await open(relayUrl, { 'x-twilio-signature': twilioSignature(TOKEN, relayUrl) });
  agent.send(JSON.stringify({ type: 'setup', sessionId: 'VXbench', callSid: 'CAbench', from: '+12125550100', to: '+12125550101' }));
  const bare = await open(`ws://127.0.0.1:${(echo.address() as AddressInfo).port}`);

  // Alternate the two in blocks so machine noise falls on both alike.
  const agentTimes: number[] = [];
  const echoTimes: number[] = [];
  echoTimes.push(...(await timeTurns(bare, (m) => m.type === 'text')));
  agentTimes.push(...(await timeTurns(agent, (m) => m.type === 'text' && m.last === true)));
  const row = (label: string, xs: number[]) => `${label.padEnd(24)} median ${quantile(xs, 0.5).toFixed(2).padStart(7)} ms   p99 ${quantile(xs, 0.99).toFixed(2).padStart(7)} ms`;
  console.log(`bench:agent: ${TURNS} turns (after ${WARMUP} warm-up turns), prompt → first text token`);
  console.log(row('bare WebSocket echo', echoTimes));
  console.log(row('our agent (LLM at once)', agentTimes));
  const addedMedian = quantile(agentTimes, 0.5) - quantile(echoTimes, 0.5);
  const addedP99 = quantile(agentTimes, 0.99) - quantile(echoTimes, 0.99);
  console.log(`added by the agent: median ${addedMedian.toFixed(2)} ms (goal < 5), p99 ${addedP99.toFixed(2)} ms (goal < 20); ratio of medians ${(quantile(agentTimes, 0.5) / quantile(echoTimes, 0.5)).toFixed(1)}x`);
  console.log(addedMedian < 5 && addedP99 < 20 ? 'goal met' : 'goal NOT met');
  agent.close();
  bare.close();
} finally {
  echo.close();
  await app.close();
  await closeDeps(deps);
  await llm.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * The live stream under load (issue 26): BENCH_CALLS simultaneous simulated calls each speak a
 * turn every BENCH_TURN_MS, delivered as the simulator delivers (signed, through the events
 * service), to BENCH_CLIENTS dashboards following GET /api/v1/live/events. Printed: the delay from
 * a turn's time to its arrival in a dashboard (p50/p99; goal p99 <= 250 ms), and the service's
 * CPU per event against a bare SSE fan-out in the same run (the same turns from memory to the
 * same number of streams with @fastify/sse, no database): goal rate >= 0.5 of the bare one.
 * The dashboards run in a child process; PostgreSQL's own CPU is not counted (another process).
 *   npm run bench:live
 *   BENCH_CALLS=1000 BENCH_CLIENTS=50 BENCH_TURN_MS=2000 BENCH_SECONDS=15 BENCH_DATABASE_URL=postgres://... npm run bench:live
 */
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { fastifySSE } from '@fastify/sse';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { depsFromDatabase } from '../src/deps.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { createApiKey } from '../src/modules/api-keys/api-keys.service.ts';
import { eventsServiceSink } from '../src/modules/dialer/call-events/provider-events.ts';
import { SIGNATURE_HEADER, signBody, webhookSecret } from '../src/voice/signature.ts';
import { createBenchDatabase } from './support/bench-db.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const TURN_MS = Number(process.env.BENCH_TURN_MS ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const TICK_MS = 50;
/** Events per delivery, as the simulator (and vendors under load) batch them. */
const DELIVERY_BATCH = 100;

interface Watchers { ready: Promise<void>; report(): Promise<{ n: number; p50: number; p99: number; max: number }>; stop(): void }

function watchers(url: string, key: string): Watchers {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/support/sse-watchers.ts', url, key], { env: { ...process.env, BENCH_CLIENTS: String(CLIENTS) }, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: ((line: string) => void)[] = [];
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    buffer += text;
    let end;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      lines.shift()?.(line);
    }
  });
  const next = () => new Promise<string>((resolve) => lines.push(resolve));
  return {
    ready: next().then(() => undefined),
    async report() {
      const answer = next();
      child.stdin.write('report\n');
      return JSON.parse(await answer);
    },
    stop: () => void child.kill(),
  };
}

/**
 * Runs the turn generator for SECONDS after a warm-up: each call speaks every TURN_MS, staggered;
 * `emit` takes one tick's turns. Answers the events emitted and the process CPU they cost.
 */
async function drive(callIds: number[], emit: (turns: { callId: number; at: Date; n: number }[]) => Promise<void>, watch: Watchers) {
  let n = 0;
  const run = async (ms: number) => {
    const until = Date.now() + ms;
    let emitted = 0;
    while (Date.now() < until) {
      const tickStart = Date.now();
      const slot = Math.floor(tickStart / TICK_MS) % Math.round(TURN_MS / TICK_MS);
      const due = callIds.filter((_, i) => i % Math.round(TURN_MS / TICK_MS) === slot).map((callId) => ({ callId, at: new Date(), n: n++ }));
      await emit(due);
      emitted += due.length;
      await new Promise((r) => setTimeout(r, Math.max(0, TICK_MS - (Date.now() - tickStart))));
    }
    return emitted;
  };
  await run(3000);
  await watch.report();
  const cpu = process.cpuUsage();
  const events = await run(SECONDS * 1000);
  const used = process.cpuUsage(cpu);
  await new Promise((r) => setTimeout(r, 1000)); // the last events arrive
  const delays = await watch.report();
  return { events, cpuMs: (used.user + used.system) / 1000, delays };
}

async function serviceRun() {
  const database = await createBenchDatabase('vc_bench_live');
  try {
    const handle = await openDatabase({ databaseUrl: database.url, dataDir: '', poolSize: 10, joinRunningEmbedded: false });
    await migrateToLatest(handle.db);
    const config = loadConfig({ DATABASE_URL: database.url, SECRET_KEY: 'bench-secret-key-that-is-long-enough-0123456789', LOG_LEVEL: 'silent' });
    const deps = depsFromDatabase(config, handle);
    const user = await createUser(deps.db, { email: 'live@example.com', password: 'bench password 1', full_name: 'Bench' });
    const { key } = await createApiKey(deps.db, user.id, 'bench');
    const { rows: [campaign] } = await sql<{ id: number }>`INSERT INTO campaigns (owner_id, title, campaign_type) VALUES (${user.id}, 'Live bench', 'Outbound') RETURNING id`.execute(deps.db);
    await sql`INSERT INTO contacts (owner_id, campaign_id, phone_number, status, contact_data, created_at, updated_at)
      SELECT ${user.id}, ${campaign!.id}, '+1212' || lpad(g::text, 7, '0'), 'in progress', '{}', now(), now() FROM generate_series(1, ${CALLS}::int) g`.execute(deps.db);
    const { rows: calls } = await sql<{ id: number }>`INSERT INTO calls (owner_id, campaign_id, contact_id, status, to_number, start_time, call_type, provider, call_data)
      SELECT owner_id, campaign_id, id, 'in progress', phone_number, now(), 'outbound', 'sim', '{}' FROM contacts ORDER BY id RETURNING id`.execute(deps.db);
    const app = await buildApp(deps, { logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const watch = watchers(`http://127.0.0.1:${port}/api/v1/live/events`, key);
    await watch.ready;
    const deliver = eventsServiceSink(deps);
    const secret = webhookSecret(config);
    const result = await drive(calls.map((c) => Number(c.id)), async (turns) => {
      const chunks = [];
      for (let i = 0; i < turns.length; i += DELIVERY_BATCH) chunks.push(turns.slice(i, i + DELIVERY_BATCH));
      await Promise.all(chunks.map((chunk) => {
        const body = JSON.stringify({ events: chunk.map((t) => ({ id: `bench-${t.n}`, type: 'turn', call_id: `sim-${t.callId}`, metadata: { call_id: t.callId }, timestamp: t.at.toISOString(), turn: { role: t.n % 2 ? 'user' : 'assistant', text: `Turn ${t.n} of the bench, a sentence of ordinary length.` } })) });
        return deliver({ path: '/api/v1/voice/sim/events', body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(secret, body, new Date()) } });
      }));
    }, watch);
    watch.stop();
    await app.close();
    await handle.close();
    return result;
  } finally {
    await database.drop();
  }
}

/** The same turns from memory to the same number of streams: a fan-out with nothing else. */
async function bareRun(callIds: number[]) {
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  const app = Fastify();
  await app.register(fastifySSE);
  app.get('/events', { sse: { kind: 'only' } }, async (_request, reply) => {
    reply.sse.keepAlive();
    const send = (e: { id: string; data: object }) => void reply.sse.send({ id: e.id, event: 'call.turn', data: e.data }).catch(() => {});
    bus.on('turn', send);
    reply.sse.onClose(() => bus.off('turn', send));
    await reply.sse.send({ event: 'ready', data: {} });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const watch = watchers(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/events`, 'none');
  await watch.ready;
  const result = await drive(callIds, async (turns) => {
    for (const t of turns) bus.emit('turn', { id: String(t.n), data: { type: 'call.turn', call_id: t.callId, campaign_id: 1, at: t.at.toISOString(), role: 'assistant', text: `Turn ${t.n} of the bench, a sentence of ordinary length.` } });
  }, watch);
  watch.stop();
  await app.close();
  return result;
}

const service = await serviceRun();
const bare = await bareRun(Array.from({ length: CALLS }, (_, i) => i + 1));
const rate = (r: typeof service) => r.events / (r.cpuMs / 1000);
const line = (name: string, r: typeof service) =>
  `${name.padEnd(8)} ${String(r.events).padStart(7)} events  ${(r.events / SECONDS).toFixed(0).padStart(5)}/s  delay p50 ${r.delays.p50} ms p99 ${r.delays.p99} ms max ${r.delays.max} ms (${r.delays.n} received)  CPU ${(r.cpuMs / r.events).toFixed(3)} ms/event  ${rate(r).toFixed(0)} events per CPU-second`;
console.log(`${CALLS} calls, a turn every ${TURN_MS} ms each, ${CLIENTS} dashboards, ${SECONDS} s measured`);
console.log(line('service', service));
console.log(line('bare', bare));
console.log(`delay p99 ${service.delays.p99} ms (goal <= 250 ms); service rate / bare rate = ${(rate(service) / rate(bare)).toFixed(2)} (goal >= 0.5)`);

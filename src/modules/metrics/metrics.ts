import { sql } from 'kysely';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../../db/connection.ts';

/**
 * The Prometheus metrics of one service instance. Each app's Deps holds its own
 * (createMetrics), with its own registry: two apps in one process share nothing.
 * Counters are updated where things happen; the gauges that need the database are read
 * on scrape, with cheap index-bound counts under a time limit.
 */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  callsStarted: Counter<'provider' | 'direction'>;
  callsEnded: Counter<'status' | 'provider'>;
  webhookDeliveries: Counter<'outcome'>;
  webhookDuration: Histogram<'outcome'>;
  importRows: Counter;
  /** Counts one finished delivery; `durationMs` is the HTTP exchange, null when nothing was sent. */
  webhookDelivered(outcome: string, durationMs: number | null): void;
  /** Adds Node's process metrics (event-loop lag, memory, CPU, GC) to the registry; once. */
  enableProcessMetrics(): void;
}

export interface MetricsSource {
  db: Db;
  pool: pg.Pool;
  /** The service's clock (the dialer's notion of "due"). */
  now(): Date;
  /** Time limit of the scrape-time database counts. */
  queryTimeoutMs?: number;
}

export const PREFIX = 'voice_campaigns_';
const DEFAULT_QUERY_TIMEOUT_MS = 2000;

export function createMetrics(source: MetricsSource): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const timeoutMs = source.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;

  const httpDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'HTTP requests by method, route pattern ("(unmatched)" when no route matched) and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const callsStarted = new Counter({
    name: `${PREFIX}calls_started_total`,
    help: 'Calls the voice provider accepted, by provider and direction (outbound, inbound)',
    labelNames: ['provider', 'direction'] as const,
    registers,
  });
  const callsEnded = new Counter({
    name: `${PREFIX}calls_ended_total`,
    help: 'Calls ended (provider events, refusals, the reconciler), by terminal status and provider',
    labelNames: ['status', 'provider'] as const,
    registers,
  });
  const webhookDeliveries = new Counter({
    name: `${PREFIX}webhook_deliveries_total`,
    help: 'Post-call webhook deliveries processed (worker, test sends and redeliveries), by outcome (sent, failed)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const webhookDuration = new Histogram({
    name: `${PREFIX}webhook_delivery_duration_seconds`,
    help: 'Duration of the HTTP exchange of webhook deliveries that sent a request, by outcome',
    labelNames: ['outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers,
  });
  const importRows = new Counter({
    name: `${PREFIX}import_rows_total`,
    help: 'Bulk-import rows applied by the import worker (rate() gives rows per second)',
    registers,
  });
  const collectFailures = new Counter({
    name: `${PREFIX}metrics_db_collect_failures_total`,
    help: 'Scrapes whose database counts failed or timed out (the gauges keep their last value)',
    registers,
  });

  // Both database gauges come from one query; concurrent collects share it.
  let inflight: Promise<void> | null = null;
  const collectDatabase = () => (inflight ??= readDatabase().finally(() => (inflight = null)));
  const callsInProgress = new Gauge({
    name: `${PREFIX}calls_in_progress`,
    help: 'Calls in progress (read from the database on scrape)',
    registers,
    collect: collectDatabase,
  });
  const contactsDue = new Gauge({
    name: `${PREFIX}contacts_due`,
    help: 'Contacts queued or scheduled whose call time has come, waiting for the dialer (read from the database on scrape)',
    registers,
    collect: collectDatabase,
  });

  async function readDatabase() {
    let timer: NodeJS.Timeout | undefined;
    try {
      const now = source.now();
      const query = source.db.transaction().execute(async (trx) => {
        // The server cancels a slow count; the race below bounds the wait for a connection.
        await sql`SELECT set_config('statement_timeout', ${String(timeoutMs)}, true)`.execute(trx);
        // Both counts are read from partial indexes (calls_live_*, contacts_due_idx).
        const { rows } = await sql<{ live: number; due: number }>`
          SELECT (SELECT count(*) FROM calls WHERE status = 'in progress')::int AS live,
                 (SELECT count(*) FROM contacts WHERE status IN ('added_to_queue', 'call_scheduled') AND next_action_time <= ${now})::int AS due`.execute(trx);
        return rows[0]!;
      });
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('metrics: database counts timed out')), timeoutMs + 500);
      });
      query.catch(() => {}); // a late failure after the timeout is not unhandled
      const { live, due } = await Promise.race([query, timeout]);
      callsInProgress.set(live);
      contactsDue.set(due);
    } catch {
      collectFailures.inc();
    } finally {
      clearTimeout(timer);
    }
  }

  const pool = source.pool;
  new Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: 'Database pool of this process: open connections (total), idle ones, and requests waiting for one',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      await collectDatabase(); // read after the scrape's own query has given its connection back
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  new Gauge({
    name: `${PREFIX}db_pool_max_connections`,
    help: 'Size of the database pool of this process (DB_POOL_SIZE)',
    registers,
    collect() {
      this.set(pool.options.max ?? 10);
    },
  });

  let processMetrics = false;
  return {
    registry,
    httpDuration,
    callsStarted,
    callsEnded,
    webhookDeliveries,
    webhookDuration,
    importRows,
    webhookDelivered(outcome, durationMs) {
      webhookDeliveries.inc({ outcome });
      if (durationMs !== null) webhookDuration.observe({ outcome }, durationMs / 1000);
    },
    enableProcessMetrics() {
      if (processMetrics) return;
      processMetrics = true;
      // nodejs_eventloop_lag_seconds (and its percentiles), process memory, CPU, GC, handles.
      collectDefaultMetrics({ register: registry });
    },
  };
}

import pg from 'pg';
import type { Logger } from 'pino';
import type { DatabaseHandle } from '../../db/connection.ts';
import type { Db } from '../../db/connection.ts';
import { LIVE_CHANNEL, latestEventId, readEventsAfter, type LiveEvent } from './live-events.repository.ts';

/**
 * One process's view of the live stream: while at least one browser follows it, it reads the
 * events committed after its watermark and hands each to the subscribers whose filter takes it.
 * Woken by NOTIFY on PostgreSQL (any process's commits), by wake() after a commit in this
 * process, and by a tick. Idle (no query at all) while nobody follows.
 *
 * Ids come from a sequence, so a transaction that took id 10 may commit after the one that
 * took 11: the feed delivers whatever it finds above its watermark, remembers it, and moves the
 * watermark only over ids it has seen; a hole is waited for GAP_WAIT_MS (a rolled-back
 * transaction leaves one forever) and then passed.
 */
export interface LiveFeed {
  /** Resolves once the subscriber receives every event committed from now on; returns the unsubscribe. */
  subscribe(subscriber: LiveSubscriber): Promise<() => void>;
  /** A change committed in this process: read now. */
  wake(): void;
  close(): Promise<void>;
}

export interface LiveSubscriber {
  accepts(event: LiveEvent): boolean;
  send(event: LiveEvent): void;
}

export interface LiveFeedOptions {
  db: Db;
  database: DatabaseHandle;
  log: Logger;
  tickMs?: number;
  gapWaitMs?: number;
}

const READ_BATCH = 1000;

export function createLiveFeed(options: LiveFeedOptions): LiveFeed {
  const { db, log } = options;
  const tickMs = options.tickMs ?? 1000;
  const gapWaitMs = options.gapWaitMs ?? 3000;
  const subscribers = new Set<LiveSubscriber>();
  let watermark = 0n;
  const above = new Set<bigint>();
  let gapSince: number | null = null;
  // One following period (first subscriber to last): its timer and LISTEN connection.
  let started: Promise<Session> | null = null;
  let reading: Promise<void> | null = null;
  let again = false;

  interface Session { timer: NodeJS.Timeout; listener: pg.Client | null }

  async function start(): Promise<Session> {
    watermark = BigInt(await latestEventId(db));
    above.clear();
    gapSince = null;
    const timer = setInterval(wake, tickMs);
    timer.unref();
    return { timer, listener: options.database.kind === 'postgres' ? await listen() : null };
  }

  async function listen(): Promise<pg.Client | null> {
    const client = new pg.Client(options.database.pool.options);
    client.on('error', () => {});
    client.on('notification', wake);
    try {
      await client.connect();
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
      return client;
    } catch (error) {
      log.warn({ err: error }, 'live feed: LISTEN unavailable, relying on the tick');
      await client.end().catch(() => {});
      return null;
    }
  }

  async function stop(session: Session) {
    clearInterval(session.timer);
    await session.listener?.end().catch(() => {});
  }

  function wake() {
    if (!started) return;
    if (reading) {
      again = true;
      return;
    }
    reading = readUntilCaughtUp().catch((error) => log.warn({ err: error }, 'live feed: read failed')).finally(() => {
      reading = null;
    });
  }

  async function readUntilCaughtUp() {
    await started;
    do {
      again = false;
      const events = await readEventsAfter(db, watermark.toString(), READ_BATCH);
      for (const event of events) {
        const id = BigInt(event.id);
        if (above.has(id)) continue;
        above.add(id);
        deliver(event);
      }
      advance();
      if (events.length === READ_BATCH) again = true;
    } while (again && subscribers.size > 0);
  }

  function advance() {
    for (;;) {
      if (above.delete(watermark + 1n)) {
        watermark += 1n;
        gapSince = null;
        continue;
      }
      if (above.size === 0) return;
      // A hole below ids already seen: a transaction still committing, or one rolled back.
      const now = Date.now();
      gapSince ??= now;
      if (now - gapSince < gapWaitMs) return;
      watermark = [...above].reduce((a, b) => (b < a ? b : a)) - 1n;
      gapSince = null;
    }
  }

  function deliver(event: LiveEvent) {
    for (const subscriber of subscribers) {
      try {
        if (subscriber.accepts(event)) subscriber.send(event);
      } catch (error) {
        log.warn({ err: error }, 'live feed: a subscriber failed');
      }
    }
  }

  return {
    async subscribe(subscriber) {
      subscribers.add(subscriber);
      started ??= start();
      try {
        await started;
      } catch (error) {
        subscribers.delete(subscriber);
        started = null;
        throw error;
      }
      return () => {
        subscribers.delete(subscriber);
        if (subscribers.size === 0 && started) {
          // The last one gone: stop reading; the next subscriber starts from the newest id again.
          const previous = started;
          started = null;
          void previous.then(stop, () => {});
        }
      };
    },
    wake,
    // Ends the current following period (the app closes); a later subscriber starts a new one.
    async close() {
      subscribers.clear();
      await reading;
      if (started) await started.then(stop, () => {});
      started = null;
    },
  };
}

import pg from 'pg';
import type { Logger } from 'pino';
import type { DatabaseHandle } from './db/connection.ts';
import type { BackgroundWorker } from './workers.ts';

/** What a round can ask of the loop that runs it. */
export interface LoopSession {
  /** Set once stop() is called: a long round hands back what it has not started. */
  readonly stopped: boolean;
}

export interface BackgroundLoopOptions {
  name: string;
  log: Logger;
  /** The sleep between rounds; a wake-up cuts it short. */
  tickMs: number;
  /**
   * One round of work. Resolving `true` runs the next round at once (more is waiting);
   * anything else sleeps `tickMs` first. A round that throws is logged and followed by the sleep.
   */
  round: (session: LoopSession) => Promise<boolean | void>;
  /**
   * Wakes the loop on each NOTIFY on `channel` through a connection of its own, on PostgreSQL
   * only (the embedded database has one session). Without it, or if LISTEN fails, the tick alone.
   */
  listen?: { database: DatabaseHandle; channel: string };
  /** In-process wake-ups: called at start with the loop's wake(); what it returns is called at stop. */
  wakeOn?: (wake: () => void) => () => void;
  /** Called as the loop starts; the first round waits for what it returns (a failure is logged). */
  onStart?: () => void | Promise<void>;
  /** How a failed round is logged; by default at error level as "<name> round failed". */
  failure?: { level?: 'warn' | 'error'; message?: string };
}

export interface BackgroundLoop extends BackgroundWorker {
  /**
   * Cuts the current sleep short, or skips the next one when a round is running. Only a flag
   * and a callback, so a worker may call it once per finished unit of work.
   */
  wake(): void;
}

interface Session extends LoopSession {
  stopped: boolean;
  /** A wake-up since the current round began. */
  pending: boolean;
  /** Ends the current sleep. */
  cut: (() => void) | null;
  listener: pg.Client | null;
  unsubscribe: (() => void) | null;
  loop: Promise<void>;
}

/**
 * Runs `round` until stopped: sleeps `tickMs` between rounds, wakes early on wake() and on
 * NOTIFY, logs a failed round and goes on. stop() stops starting rounds and resolves when the
 * round in flight has finished and the LISTEN connection is closed.
 */
export function createBackgroundLoop(options: BackgroundLoopOptions): BackgroundLoop {
  const { name, log, tickMs } = options;
  const failureLevel = options.failure?.level ?? 'error';
  const failureMessage = options.failure?.message ?? `${name} round failed`;
  // Everything of one start lives in its session, so a loop started again never shares a flag,
  // a sleep or a connection with the run that is still finishing.
  let current: Session | null = null;
  // The last stop in progress: a second stop() waits for the same round.
  let stopping: Promise<void> = Promise.resolve();

  function wake() {
    const session = current;
    if (!session) return;
    session.pending = true;
    session.cut?.();
  }

  function sleep(session: Session, ms: number): Promise<void> {
    if (session.pending || session.stopped) return Promise.resolve();
    // A plain timer and a callback: an AbortController per sleep and an abort per wake-up
    // would cost a DOMException with a stack trace each.
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        session.cut = null;
        resolve();
      }
      session.cut = done;
    });
  }

  async function listen(session: Session, target: NonNullable<BackgroundLoopOptions['listen']>) {
    if (target.database.kind !== 'postgres') return;
    const client = new pg.Client(target.database.pool.options);
    client.on('error', () => {});
    client.on('notification', () => {
      session.pending = true;
      session.cut?.();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${target.channel}`);
    } catch (error) {
      log.warn({ err: error }, `${name}: LISTEN unavailable, relying on the tick`);
      await client.end().catch(() => {});
      return;
    }
    // Stopped while connecting: stop() found no connection to close, so close it here.
    if (session.stopped) await client.end().catch(() => {});
    else session.listener = client;
  }

  async function run(session: Session, starting: void | Promise<void>) {
    try {
      await starting;
    } catch (error) {
      log.error({ err: error }, `${name}: start failed`);
    }
    while (!session.stopped) {
      session.pending = false;
      let again = false;
      try {
        again = (await options.round(session)) === true;
      } catch (error) {
        log[failureLevel]({ err: error }, failureMessage);
      }
      if (!again) await sleep(session, tickMs);
    }
  }

  return {
    name,
    wake,
    start() {
      if (current) return;
      const session: Session = { stopped: false, pending: false, cut: null, listener: null, unsubscribe: null, loop: Promise.resolve() };
      current = session;
      let starting: void | Promise<void>;
      try {
        starting = options.onStart?.();
      } catch (error) {
        current = null;
        throw error;
      }
      session.unsubscribe = options.wakeOn?.(wake) ?? null;
      if (options.listen) void listen(session, options.listen);
      session.loop = run(session, starting);
    },
    stop() {
      const session = current;
      if (!session) return stopping;
      current = null;
      session.stopped = true;
      session.cut?.();
      session.unsubscribe?.();
      stopping = (async () => {
        await session.loop;
        await session.listener?.end().catch(() => {});
        session.listener = null;
      })();
      return stopping;
    },
  };
}

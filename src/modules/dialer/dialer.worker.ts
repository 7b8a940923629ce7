import pg from 'pg';
import pino from 'pino';
import type { Deps } from '../../deps.ts';
import type { BackgroundWorker } from '../../workers.ts';
import { dialDueContacts } from './outbound/outbound.service.ts';
import { reconcileStaleCalls } from './call-events/reconciler.ts';
import { resumeInterruptedCalls } from './outbound/resume.ts';
import { sweepCampaignStates } from './outbound/sweep.ts';
import { DIALER_CHANNEL } from './wake.ts';

const BATCH = 200;
// Rounds in a row before yielding to the tick, so one busy queue cannot hog the loop forever.
const MAX_ROUNDS = 50;

/** One round of the dialer's work: park/revive, dial what is due, settle stale calls. */
export async function runDialerRound(deps: Deps): Promise<{ started: number }> {
  await sweepCampaignStates({ deps });
  let started = 0;
  for (let i = 0; i < MAX_ROUNDS; i++) {
    const r = await dialDueContacts({ deps, batchSize: BATCH });
    started += r.started;
    // Nothing more due, or everything claimed belongs to campaigns another worker is dialling
    // (claiming again at once would only hold their rows from that worker).
    if (r.claimed < BATCH || r.busy === r.claimed) break;
  }
  await reconcileStaleCalls({ deps });
  return { started };
}

/**
 * The dialer loop: wakes on its tick (DIALER_TICK_MS), on in-process wake-ups and, on
 * PostgreSQL, on NOTIFY from other processes. stop() stops claiming and waits for the
 * round in flight (calls already started end through provider events).
 */
export function createDialerWorker(deps: Deps): BackgroundWorker {
  const log = pino({ level: deps.config.LOG_LEVEL, name: 'dialer' });
  let stopped = true;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  let pending = false;
  let unsubscribe: (() => void) | null = null;
  let listener: pg.Client | null = null;

  const poke = () => {
    pending = true;
    wake?.();
  };
  const sleep = (ms: number) => new Promise<void>((resolve) => {
    if (pending || stopped) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      wake = null;
      resolve();
    }
    wake = done;
  });

  async function listen() {
    if (deps.database.kind !== 'postgres') return;
    try {
      const client = new pg.Client(deps.database.pool.options);
      client.on('error', () => {});
      client.on('notification', poke);
      await client.connect();
      await client.query(`LISTEN ${DIALER_CHANNEL}`);
      if (stopped) await client.end();
      else listener = client;
    } catch (error) {
      log.warn({ err: error }, 'dialer: LISTEN unavailable, relying on the tick');
    }
  }

  async function run() {
    try {
      const resumed = await resumeInterruptedCalls(deps);
      if (resumed > 0) log.info({ resumed }, 'dialer: took up calls a stopped process left in progress');
    } catch (error) {
      log.error({ err: error }, 'dialer: resuming calls in progress failed (the reconciler settles them)');
    }
    while (!stopped) {
      pending = false;
      try {
        await runDialerRound(deps);
      } catch (error) {
        log.error({ err: error }, 'dialer round failed');
      }
      await sleep(deps.config.DIALER_TICK_MS);
    }
  }

  return {
    name: 'dialer',
    start() {
      if (!stopped) return;
      stopped = false;
      unsubscribe = deps.dialerWake.onWake(poke);
      void listen();
      loop = run();
    },
    async stop() {
      stopped = true;
      wake?.();
      unsubscribe?.();
      await loop;
      loop = null;
      await listener?.end().catch(() => {});
      listener = null;
    },
  };
}

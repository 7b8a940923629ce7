import { createBackgroundLoop } from '../../background-loop.ts';
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
// Rounds whose vendor requests may be in flight while the next one claims.
const ROUNDS_IN_FLIGHT = 4;

/** One round of the dialer's work: park/revive, dial what is due, settle stale calls. */
export async function runDialerRound(deps: Deps): Promise<{ started: number }> {
  await sweepCampaignStates({ deps });
  let started = 0;
  const starting: Promise<void>[] = [];
  for (let i = 0; i < MAX_ROUNDS; i++) {
    const r = await dialDueContacts({ deps, batchSize: BATCH, startInBackground: (p) => starting.push(p) });
    started += r.started;
    if (starting.length >= ROUNDS_IN_FLIGHT) await starting.shift();
    // Nothing more due, or everything claimed belongs to campaigns another worker is dialling
    // (claiming again at once would only hold their rows from that worker).
    if (r.claimed < BATCH || r.busy === r.claimed) break;
  }
  // A round ends with its calls started: stop() waiting for the round waits for them too.
  await Promise.all(starting);
  await reconcileStaleCalls({ deps });
  return { started };
}

/**
 * The dialer loop: wakes on its tick (DIALER_TICK_MS), on in-process wake-ups and, on
 * PostgreSQL, on NOTIFY from other processes. stop() stops claiming and waits for the
 * round in flight (calls already started end through provider events).
 */
export function createDialerWorker(deps: Deps): BackgroundWorker {
  const log = deps.log.child({ worker: 'dialer' });

  async function resume() {
    try {
      const resumed = await resumeInterruptedCalls(deps);
      if (resumed > 0) log.info({ resumed }, 'dialer: took up calls a stopped process left in progress');
    } catch (error) {
      log.error({ err: error }, 'dialer: resuming calls in progress failed (the reconciler settles them)');
    }
  }

  return createBackgroundLoop({
    name: 'dialer',
    log,
    tickMs: deps.config.DIALER_TICK_MS,
    listen: { database: deps.database, channel: DIALER_CHANNEL },
    wakeOn: deps.dialerWake.onWake,
    failure: { message: 'dialer round failed' },
    onStart: () => {
      return resume();
    },
    round: async () => {
      await runDialerRound(deps);
    },
  });
}

import type { Deps } from '../../../deps.ts';
import { lockGlobalRoom } from './concurrency-locks.ts';
import { estimateRouteRooms } from './vendor-pacing.ts';
import { pacedRoutes } from './call-routes.ts';
import { planRound } from './round-plan.ts';
import { writeRound } from './round-writer.ts';
import { startCalls, type StartingCall } from './start-calls.ts';

export interface DialResult {
  claimed: number;
  /** Claimed contacts left for later because another worker held their campaign's lock. */
  busy: number;
  started: number;
  callIds: number[];
}

/**
 * One dialling round: in one transaction, decide (round-plan.ts: claim, campaign state, law,
 * window, limits, caps, pacing, caller id) and write (round-writer.ts: the calls and every
 * contact's next step); only after commit ask the providers to dial (our call id is their
 * idempotency key).
 */
export async function dialDueContacts({ deps, batchSize = 200, startInBackground }: {
  deps: Deps;
  batchSize?: number;
  /**
   * Takes the vendor requests of the round instead of waiting for them (the dialer loop): the next
   * round claims while they are in flight, so one slow vendor does not hold back every other route.
   * The promise never rejects (a failure is logged; the reconciler settles its calls).
   */
  startInBackground?: (starting: Promise<void>) => void;
}): Promise<DialResult> {
  const now = deps.clock.now();
  const routes = await pacedRoutes(deps);
  const prepared = await deps.db.transaction().execute(async (trx) => {
    const none = { claimed: 0, busy: 0, calls: [] as StartingCall[] };
    let globalRoom = Infinity;
    if (deps.config.MAX_CONCURRENT_CALLS > 0) {
      globalRoom = await lockGlobalRoom(trx, deps.config.MAX_CONCURRENT_CALLS);
      if (globalRoom <= 0) return none;
    }
    const routeRooms = await estimateRouteRooms(trx, deps, routes.pacing, now);
    // Every route in use is paced: the vendors will take no more than their rooms together.
    const vendorRoom = routes.allPaced ? [...routeRooms.values()].reduce((a, b) => a + b, 0) : Infinity;
    const limit = Math.min(batchSize, globalRoom, vendorRoom);
    if (limit <= 0) return none;
    const plan = await planRound(trx, deps, { now, limit, globalRoom, routeRooms });
    if (!plan) return none;
    return { claimed: plan.claimed, busy: plan.busy, calls: await writeRound(trx, plan) };
  });

  if (prepared.calls.length > 0) {
    deps.live.wake();
    const starting = startCalls(deps, prepared.calls);
    if (startInBackground) startInBackground(starting.catch((error) => deps.log.error({ err: error }, 'dialer: starting calls failed (the reconciler settles them)')));
    else await starting;
  }
  return { claimed: prepared.claimed, busy: prepared.busy, started: prepared.calls.length, callIds: prepared.calls.map((c) => c.id) };
}

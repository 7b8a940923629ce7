import type { ClaimPacing } from '../../claim-worker.ts';

/**
 * How the webhook worker paces its claims (its loop, slots and batched results are
 * src/claim-worker.ts): a queue of claimed rows sized by the recent send rate.
 */

/**
 * The claim-worker's pacing for deliveries: top the queue up when it is half empty, to about
 * 100 ms of sending, and look again only then. Waking the loop after every send cost a timer
 * and an abort signal per delivery.
 */
export function deliveryPacing(options: { concurrency: number; max: number }): ClaimPacing {
  const sizer = createClaimSizer(options);
  return {
    // Top up well before the queue runs dry: a claim takes a round trip or two, sends go on meanwhile.
    claimLimit: ({ queued }) => (queued <= sizer.lowWater() ? Math.max(1, sizer.target() - queued) : 0),
    finished({ queued, starved }) {
      sizer.sent();
      // A slot with nothing to take: the queue was sized too small for this receiver.
      if (starved) sizer.starved();
      return queued <= sizer.lowWater();
    },
  };
}

/**
 * How many rows to hold claimed ahead: about `aheadMs` of sending at the recent rate,
 * between 2 x concurrency and `max`. Fast receivers need a deep queue, or the sends
 * outrun the next claim (a claim commits, so it waits for a WAL flush, and takes 10-30
 * ms on a busy database, in which a fast worker sends a hundred deliveries or more).
 * Slow receivers need a shallow one: rows claimed but not started when a process dies
 * are failed by the sweeper, never sent, so what is at stake stays ~aheadMs of sending.
 */
export function createClaimSizer(options: { concurrency: number; max: number; aheadMs?: number; now?: () => number }) {
  const aheadMs = options.aheadMs ?? 100;
  const now = options.now ?? (() => performance.now());
  const min = Math.min(options.max, options.concurrency * 2);
  let sent = 0;
  let since = now();
  let perMs = 0;
  let target = min;
  let starved = false;

  /** Re-measures the send rate over spans of at least 50 ms: rises at once, falls smoothed. */
  function refresh() {
    const at = now();
    const span = at - since;
    if (span < 50) return;
    const measured = sent / span;
    perMs = measured >= perMs ? measured : (perMs + measured) / 2;
    sent = 0;
    since = at;
    target = Math.max(min, Math.min(options.max, Math.ceil(perMs * aheadMs)));
  }

  return {
    /** Counts one finished send. */
    sent() {
      sent++;
    },
    /** A slot found the queue empty: the rate measured so far understates what the receiver takes. */
    starved() {
      starved = true;
    },
    /** The queue length at or below which the queue is topped up. */
    lowWater(): number {
      refresh();
      return target / 2;
    },
    /** The queue length a top-up claims up to; doubled (once per claim) after the queue ran dry. */
    target(): number {
      refresh();
      if (starved) target = Math.min(options.max, target * 2);
      starved = false;
      return target;
    },
  };
}

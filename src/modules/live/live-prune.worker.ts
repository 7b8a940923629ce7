import { createBackgroundLoop } from '../../background-loop.ts';
import type { Deps } from '../../deps.ts';
import { pruneEvents } from './live-events.repository.ts';

const PRUNE_EVERY_MS = 60_000;

/**
 * Deletes the live stream's events older than LIVE_EVENTS_KEEP_MS, once a minute, a bounded
 * batch at a time: the calls are the record, these rows only serve browsers that resume.
 */
export function createLivePruneWorker(deps: Deps) {
  return createBackgroundLoop({
    name: 'live-events-prune',
    log: deps.log,
    tickMs: PRUNE_EVERY_MS,
    failure: { level: 'warn' },
    // A full batch means more is waiting: go on at once.
    round: async () => (await pruneEvents(deps.db, deps.config.LIVE_EVENTS_KEEP_MS)) === 5000,
  });
}

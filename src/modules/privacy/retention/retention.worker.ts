import { sql } from 'kysely';
import { createBackgroundLoop } from '../../../background-loop.ts';
import type { Deps } from '../../../deps.ts';
import { insertAuditEvent } from '../../audit/audit.repository.ts';
import { accountRules, addCounts, NO_PURGE, purgeCalls, purgeDeliveries, purgeMessages, retentionRules, type PurgeCounts } from './retention-purge.ts';

/** Rows emptied per statement: a batch is one short transaction, so calls and texts being written never wait long. */
export const PURGE_BATCH = 500;

/** The audit trail's actor label of what retention emptied. */
export const RETENTION_ACTOR = 'retention';

/**
 * Empties the personal fields of rows past their account's (or campaign's) retention, every
 * PRIVACY_PURGE_EVERY_MS, a batch at a time until none is due. Each batch commits on its own and
 * stamps what it emptied, so a crash loses nothing and the next run goes on from there; rows
 * inside their retention are never read for it. Each run that emptied anything writes one audit
 * event per account with the counts.
 */
export async function purgeDue(deps: Deps, now: Date = deps.clock.now()): Promise<Map<number, PurgeCounts>> {
  const byOwner = new Map<number, PurgeCounts>();
  const add = (ownerId: number, counts: PurgeCounts) => byOwner.set(ownerId, addCounts(byOwner.get(ownerId) ?? NO_PURGE, counts));
  for (const rule of await retentionRules(deps.db)) {
    for (const purge of [purgeCalls, purgeMessages]) {
      for (;;) {
        const counts = await purge(deps.db, rule, now, PURGE_BATCH);
        add(rule.ownerId, counts);
        if (counts.calls + counts.messages < PURGE_BATCH) break;
      }
    }
  }
  for (const rule of await accountRules(deps.db)) {
    for (;;) {
      const counts = await purgeDeliveries(deps.db, rule, now, PURGE_BATCH);
      add(rule.ownerId, counts);
      if (counts.deliveries < PURGE_BATCH) break;
    }
  }
  for (const [ownerId, counts] of byOwner) {
    if (counts.calls + counts.conversations + counts.messages + counts.deliveries === 0) continue;
    await insertAuditEvent(deps.db, {
      owner_id: ownerId, actor_user_id: null, actor_sub_user_id: null, actor_api_key_id: null, actor_label: sql<string>`${RETENTION_ACTOR}::text`,
      kind: 'privacy.retention_purged', subject_type: 'account', subject_id: ownerId, details: { ...counts, at: now.toISOString() }, ip: null, user_agent: null,
    });
  }
  return byOwner;
}

export function createRetentionWorker(deps: Deps) {
  return createBackgroundLoop({
    name: 'privacy-retention',
    log: deps.log,
    tickMs: deps.config.PRIVACY_PURGE_EVERY_MS,
    failure: { level: 'warn' },
    round: async () => {
      await purgeDue(deps);
      return false;
    },
  });
}

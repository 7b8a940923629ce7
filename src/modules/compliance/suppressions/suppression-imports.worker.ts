import type { Logger } from 'pino';
import { createClaimWorker, defaultWorkerId, UNFINISHED, type ClaimWorker, type JobSession, type JobWakes, type Unfinished } from '../../../claim-worker.ts';
import type { DatabaseHandle, Db } from '../../../db/connection.ts';
import { storableExcerpt, unstorable } from '../../../http/json-body.ts';
import { normalisePhone } from '../../../shared/phone.ts';
import { recordAudit } from '../../audit/audit.service.ts';
import type { Principal } from '../../auth/principal.ts';
import * as tasks from './suppression-imports.repository.ts';
import { upsertSuppressions, type SuppressionDraft } from './suppressions.repository.ts';
import { MAX_REASON } from './suppressions.schemas.ts';
import { checkExpiry } from './suppressions.service.ts';

/**
 * Bulk additions to the do-not-call list are applied here, by a claim-worker (src/claim-worker.ts),
 * never in the request that stored them: any `serve` or `worker` process takes the oldest open task
 * (SKIP LOCKED), applies its rows in batches of BATCH_ROWS, each batch in one transaction with the
 * task's counters, cursor and lease, and writes the task's audit event in the transaction that ends
 * it. A task whose worker died is taken over when its lease (LEASE_MS) runs out.
 */
export const BATCH_ROWS = 1000;
/** Far longer than one batch takes; each batch renews it. */
const LEASE_MS = 60_000;

/** NOTIFY channel and in-process wake-up name: a task was stored. */
export const SUPPRESSION_IMPORTS_CHANNEL = 'suppression_imports_due';

export interface SuppressionImportWorkerDeps {
  db: Db;
  database: DatabaseHandle;
  config: { DEFAULT_COUNTRY: string; DIALER_TICK_MS: number };
  clock: { now(): Date };
  jobWakes: JobWakes;
  log: Logger;
}

export interface SuppressionImportWorkerOptions {
  workerId?: string;
  /** Idle wait between looks for tasks besides wake-ups (default DIALER_TICK_MS). */
  pollMs?: number;
  leaseMs?: number;
}

/** One stored row checked: a draft to add, or the reason it fails. */
function prepareRow(row: tasks.StoredSuppressionRow, deps: { defaultCountry: string; now: Date }): { draft: Omit<SuppressionDraft, 'source'> } | { error: string } {
  const [raw, reason, expiresAt] = row;
  const phone = normalisePhone(String(raw ?? ''), deps.defaultCountry);
  if (!phone) return { error: 'not a valid phone number' };
  const text = reason === null || reason.trim() === '' ? null : reason.trim();
  if (text !== null && text.length > MAX_REASON) return { error: `reason: at most ${MAX_REASON} characters` };
  if (text !== null && unstorable(text)) return { error: `reason: ${unstorable(text)!.msg}` };
  const expiry = checkExpiry(expiresAt === null || expiresAt.trim() === '' ? null : expiresAt.trim(), deps.now);
  if ('error' in expiry) return { error: `expires_at: ${expiry.error}` };
  return { draft: { phone_number: phone.e164, reason: text, expires_at: expiry.value } };
}

/** Who the audit event names: the request's principal, or (a task stored before migration 0024) its creator. */
function principalOf(task: tasks.ClaimedImportTask): Principal {
  if (task.requested_by) return task.requested_by.principal;
  if (task.created_by_sub_user_id !== null) return { kind: 'sub_user', subUserId: task.created_by_sub_user_id, ownerId: task.owner_id };
  return { kind: 'user', userId: task.created_by_user_id ?? task.owner_id, ownerId: task.owner_id, isSuperuser: false };
}

/** One event for the whole list, as the request wrote it: its task names every row and its errors. */
async function auditTask(trx: Db, task: tasks.ClaimedImportTask, counts: { added: number; failed: number }) {
  const by = task.requested_by;
  await recordAudit(trx, {
    principal: principalOf(task),
    request: { ...(by?.ip ? { ip: by.ip } : {}), headers: { 'user-agent': by?.user_agent ?? undefined } },
    kind: 'suppression.added', subject: { type: 'suppression', id: null },
    details: { import_task_id: task.id, kind: task.kind, file_name: task.file_name, rows: task.total, added: counts.added, failed: counts.failed },
  });
}

/**
 * Applies a claimed task's rows batch by batch from its cursor. Each batch locks the task and
 * applies only where the cursor still is and while this worker holds the lease, so two workers
 * never apply a row twice. Stopped between batches, it hands the task back.
 */
async function applyTask(deps: SuppressionImportWorkerDeps, task: tasks.ClaimedImportTask, session: JobSession): Promise<void | Unfinished> {
  const { db } = deps;
  const { rows } = task;
  for (let start = task.next_index; start < rows.length; start += BATCH_ROWS) {
    if (session.stopped) return UNFINISHED;
    const batch = rows.slice(start, start + BATCH_ROWS);
    const applied = await db.transaction().execute(async (trx) => {
      const locked = await tasks.lockImportTask(trx, task.id);
      if (!locked || locked.status !== 'running' || locked.locked_by !== session.workerId || locked.next_index !== start) return false;
      const now = deps.clock.now();
      const errors: tasks.RowError[] = [];
      const drafts: SuppressionDraft[] = [];
      batch.forEach((row, i) => {
        const prepared = prepareRow(row, { defaultCountry: deps.config.DEFAULT_COUNTRY, now });
        if ('error' in prepared) errors.push({ index: start + i, phone_number: storableExcerpt(String(row[0] ?? '')), reason: prepared.error });
        else drafts.push({ ...prepared.draft, source: 'import', created_by_user_id: task.created_by_user_id, created_by_sub_user_id: task.created_by_sub_user_id });
      });
      await upsertSuppressions(trx, task.owner_id, drafts);
      const next = start + batch.length;
      const done = next >= rows.length;
      await tasks.recordBatch(trx, {
        id: task.id, nextIndex: next, rowCount: batch.length, added: drafts.length, errors,
        room: Math.max(0, tasks.MAX_STORED_ERRORS - locked.error_count), done,
      });
      if (done) await auditTask(trx, task, { added: locked.added + drafts.length, failed: locked.failed + errors.length });
      return true;
    });
    // The lease was taken over or the task ended elsewhere: it is not ours any more.
    if (!applied) return;
  }
}

export function createSuppressionImportWorker(deps: SuppressionImportWorkerDeps, options: SuppressionImportWorkerOptions = {}): ClaimWorker {
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const { db } = deps;
  return createClaimWorker<tasks.ClaimedImportTask>({
    name: 'suppression-imports',
    log: deps.log.child({ worker: 'suppression-imports' }),
    workerId: options.workerId ?? defaultWorkerId('suppression-imports'),
    tickMs: options.pollMs ?? deps.config.DIALER_TICK_MS,
    listen: { database: deps.database, channel: SUPPRESSION_IMPORTS_CHANNEL },
    wakeOn: (wake) => deps.jobWakes.onWake(SUPPRESSION_IMPORTS_CHANNEL, wake),
    messages: { failure: 'suppression import failed' },
    source: {
      claim: async (workerId) => {
        const task = await tasks.claimImportTask(db, workerId, leaseMs);
        return task ? [task] : [];
      },
      process: (task, session) => applyTask(deps, task, session),
      release: async (workerId, claimed) => {
        for (const task of claimed) await tasks.releaseImportTask(db, task.id, workerId);
      },
      // As when the request ran it: the task ends failed, with the batches before the error applied
      // (and named in its audit event). Retrying could fail the same way for ever.
      fail: (workerId, task) => db.transaction().execute(async (trx) => {
        const ended = await tasks.failImportTask(trx, task.id, workerId, 'the import stopped on an internal error; the rows before it were added');
        if (ended) await auditTask(trx, task, ended);
      }),
    },
  });
}

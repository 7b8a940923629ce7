import { sql } from 'kysely';
import type { Db } from '../../../db/connection.ts';
import type { Principal } from '../../auth/principal.ts';

/** All SQL of the suppression import tasks (see migration 0019 for the invariants). */

/** A row as stored with its task: [phone as given, reason, expires_at as given]. */
export type StoredSuppressionRow = [string, string | null, string | null];

export interface RowError {
  index: number;
  phone_number: string;
  reason: string;
}

export const MAX_STORED_ERRORS = 1000;

const PROGRESS = [
  'id', 'owner_id', 'created_by_sub_user_id', 'kind', 'status', 'total', 'processed', 'added', 'failed', 'error_count', 'errors',
  'file_name', 'failure_reason', 'created_at', 'started_at', 'finished_at',
] as const;

/** Who stored a task, kept with it so the worker writes the audit event the request would have. */
export interface RequestedBy {
  principal: Principal;
  ip: string | null;
  user_agent: string | null;
}

/**
 * Stores a task. An empty one is stored completed, with its audit event in the same
 * transaction (there is nothing for a worker to do); `audit` writes that event.
 */
export async function insertImportTask(db: Db, input: {
  ownerId: number; userId: number | null; subUserId: number | null; kind: 'bulk' | 'csv'; fileName: string | null; rows: StoredSuppressionRow[];
  requestedBy: RequestedBy; audit: (trx: Db, taskId: number) => Promise<void>;
}) {
  const empty = input.rows.length === 0;
  const insert = (trx: Db) => trx
    .insertInto('suppression_imports')
    .values({
      owner_id: input.ownerId, created_by_user_id: input.userId, created_by_sub_user_id: input.subUserId, kind: input.kind, file_name: input.fileName,
      rows: JSON.stringify(input.rows), total: input.rows.length, requested_by: JSON.stringify(input.requestedBy),
      ...(empty ? { status: 'completed' as const, started_at: sql<Date>`now()`, finished_at: sql<Date>`now()` } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (!empty) return insert(db);
  return db.transaction().execute(async (trx) => {
    const task = await insert(trx);
    await input.audit(trx, task.id);
    return task;
  });
}

export const findImportTask = (db: Db, id: number) => db.selectFrom('suppression_imports').select(PROGRESS).where('id', '=', id).executeTakeFirst();

export interface ClaimedImportTask {
  id: number;
  owner_id: number;
  created_by_user_id: number | null;
  created_by_sub_user_id: number | null;
  kind: 'bulk' | 'csv';
  file_name: string | null;
  rows: StoredSuppressionRow[];
  next_index: number;
  total: number;
  requested_by: RequestedBy | null;
}

/**
 * Takes the oldest open task: pending, or running with a lease not renewed for leaseMs (its
 * worker crashed or was killed). SKIP LOCKED lets any number of workers claim side by side;
 * each batch re-checks the lease under the task's row lock, so a worker whose lease was taken
 * over applies nothing more.
 */
export async function claimImportTask(db: Db, workerId: string, leaseMs: number): Promise<ClaimedImportTask | undefined> {
  const result = await sql<ClaimedImportTask>`
    UPDATE suppression_imports
       SET status = 'running', locked_by = ${workerId}, locked_at = now(), started_at = COALESCE(started_at, now())
     WHERE id = (
       SELECT id FROM suppression_imports
        WHERE status = 'pending' OR (status = 'running' AND (locked_at IS NULL OR locked_at < now() - make_interval(secs => ${leaseMs / 1000})))
        ORDER BY id
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
    RETURNING id, owner_id, created_by_user_id, created_by_sub_user_id, kind, file_name, rows, next_index, total, requested_by`.execute(db);
  return result.rows[0];
}

/** Hands a task back (its worker is stopping): the next claim takes it at once. */
export async function releaseImportTask(db: Db, id: number, workerId: string) {
  await db.updateTable('suppression_imports').set({ locked_by: null, locked_at: null }).where('id', '=', id).where('locked_by', '=', workerId).where('status', '=', 'running').execute();
}

/** Locks the task for one batch; the batch applies only where the cursor still is, under this worker's lease. */
export const lockImportTask = (trx: Db, id: number) =>
  trx.selectFrom('suppression_imports').select(['status', 'locked_by', 'next_index', 'error_count', 'added', 'failed']).where('id', '=', id).forUpdate().executeTakeFirst();

export async function recordBatch(trx: Db, input: { id: number; nextIndex: number; rowCount: number; added: number; errors: RowError[]; room: number; done: boolean }) {
  const { errors, room } = input;
  await trx
    .updateTable('suppression_imports')
    .set((eb) => ({
      processed: eb('processed', '+', input.rowCount),
      added: eb('added', '+', input.added),
      failed: eb('failed', '+', errors.length),
      error_count: eb('error_count', '+', errors.length),
      ...(room > 0 && errors.length > 0 ? { errors: sql`errors || ${JSON.stringify(errors.slice(0, room))}::jsonb` } : {}),
      next_index: input.nextIndex,
      // Each batch renews the lease.
      locked_at: sql<Date>`now()`,
      // The rows are not needed once applied.
      ...(input.done ? { status: 'completed' as const, finished_at: sql<Date>`now()`, rows: '[]', locked_by: null, locked_at: null } : {}),
    }))
    .where('id', '=', input.id)
    .execute();
}

/** Ends a task failed, if this worker still holds it; returns its counters then, for the audit event. */
export async function failImportTask(db: Db, id: number, workerId: string, reason: string) {
  return db
    .updateTable('suppression_imports')
    .set({ status: 'failed', failure_reason: reason, finished_at: sql<Date>`now()`, rows: '[]', locked_by: null, locked_at: null })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('locked_by', '=', workerId)
    .returning(['added', 'failed'])
    .executeTakeFirst();
}

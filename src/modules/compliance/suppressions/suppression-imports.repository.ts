import { sql } from 'kysely';
import type { Db } from '../../../db/connection.ts';

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

export async function insertImportTask(db: Db, input: {
  ownerId: number; userId: number | null; subUserId: number | null; kind: 'bulk' | 'csv'; fileName: string | null; rows: StoredSuppressionRow[];
}) {
  const empty = input.rows.length === 0;
  return db
    .insertInto('suppression_imports')
    .values({
      owner_id: input.ownerId, created_by_user_id: input.userId, created_by_sub_user_id: input.subUserId, kind: input.kind, file_name: input.fileName,
      rows: JSON.stringify(input.rows), total: input.rows.length,
      ...(empty ? { status: 'completed' as const, started_at: sql<Date>`now()`, finished_at: sql<Date>`now()` } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export const findImportTask = (db: Db, id: number) => db.selectFrom('suppression_imports').select(PROGRESS).where('id', '=', id).executeTakeFirst();

/** Takes a pending task; undefined when another runner has it or it has ended. */
export async function claimImportTask(db: Db, id: number) {
  return db
    .updateTable('suppression_imports')
    .set({ status: 'running', started_at: sql<Date>`COALESCE(started_at, now())` })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returning(['id', 'owner_id', 'created_by_user_id', 'created_by_sub_user_id', 'rows', 'next_index', 'total'])
    .executeTakeFirst();
}

/** Locks the task for one batch; the batch applies only where the cursor still is. */
export const lockImportTask = (trx: Db, id: number) =>
  trx.selectFrom('suppression_imports').select(['status', 'next_index', 'error_count']).where('id', '=', id).forUpdate().executeTakeFirst();

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
      // The rows are not needed once applied.
      ...(input.done ? { status: 'completed' as const, finished_at: sql<Date>`now()`, rows: '[]' } : {}),
    }))
    .where('id', '=', input.id)
    .execute();
}

export async function failImportTask(db: Db, id: number, reason: string) {
  await db
    .updateTable('suppression_imports')
    .set({ status: 'failed', failure_reason: reason, finished_at: sql<Date>`now()`, rows: '[]' })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'running'])
    .execute();
}

import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { Database } from '../../db/schema.ts';
import type { CsvColumn } from './csv-columns.ts';

/** A row as stored in a chunk: [phone as given, campaign_id, status, contact_data, timezone]. */
export type StoredRow = [string, number, string, Record<string, unknown> | null, string | null];

export interface ImportError {
  index: number;
  phone_number: string;
  reason: string;
}

/** At most this many row errors are kept per task; error_count still counts them all. */
export const MAX_STORED_ERRORS = 1000;

type Executor = Db | Transaction<Database>;

const PROGRESS_COLUMNS = [
  'id', 'owner_id', 'created_by_sub_user_id', 'kind', 'status', 'total', 'processed', 'created', 'skipped', 'failed',
  'error_count', 'failure_reason', 'file_name', 'created_at', 'started_at', 'finished_at',
] as const;

export function createImportsRepository(db: Db) {
  return {
    async insertTask(trx: Executor, input: { ownerId: number; subUserId: number | null; kind: 'bulk' | 'csv'; sealed: boolean; fileName?: string | null; columns?: CsvColumn[] }) {
      return trx
        .insertInto('import_tasks')
        .values({
          owner_id: input.ownerId, created_by_sub_user_id: input.subUserId, kind: input.kind, sealed: input.sealed, file_name: input.fileName ?? null,
          columns: input.columns ? JSON.stringify(input.columns) : null,
        })
        .returning(['id', 'status'])
        .executeTakeFirstOrThrow();
    },

    async insertChunk(trx: Executor, input: { taskId: number; seq: number; firstIndex: number; rows: StoredRow[] }) {
      await trx
        .insertInto('import_task_chunks')
        .values({ task_id: input.taskId, seq: input.seq, first_index: input.firstIndex, row_count: input.rows.length, rows: JSON.stringify(input.rows) })
        .execute();
      // An upload in progress is alive while data comes: the sweeper measures from here.
      await trx.updateTable('import_tasks').set({ progress_at: sql<Date>`now()` }).where('id', '=', input.taskId).where('sealed', '=', false).execute();
    },

    /** Makes the task claimable; an empty import is complete at once. */
    async sealTask(trx: Executor, input: { taskId: number; total: number; chunkCount: number }) {
      const empty = input.total === 0;
      return trx
        .updateTable('import_tasks')
        .set({
          sealed: true,
          total: input.total,
          chunk_count: input.chunkCount,
          ...(empty ? { status: 'completed', started_at: sql<Date>`now()`, finished_at: sql<Date>`now()` } : {}),
        })
        .where('id', '=', input.taskId)
        // A task the sweeper ended (no data for too long) stays ended: undefined tells the caller.
        .where('status', '=', 'pending')
        .returning(['id', 'status', 'total'])
        .executeTakeFirst();
    },

    async deleteTask(taskId: number) {
      await db.deleteFrom('import_tasks').where('id', '=', taskId).execute();
    },

    async findTask(taskId: number) {
      return db.selectFrom('import_tasks').select([...PROGRESS_COLUMNS, 'errors', 'columns']).where('id', '=', taskId).executeTakeFirst();
    },

    async listTasks(input: { ownerId: number; subUserId: number | null; skip: number; limit: number }) {
      let query = db.selectFrom('import_tasks').where('owner_id', '=', input.ownerId);
      if (input.subUserId !== null) query = query.where('created_by_sub_user_id', '=', input.subUserId);
      const [data, count] = await Promise.all([
        query.select(PROGRESS_COLUMNS).orderBy('id', 'desc').offset(input.skip).limit(input.limit).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
      ]);
      return { data, count: Number(count.count) };
    },
  };
}

export type ImportsRepository = ReturnType<typeof createImportsRepository>;

import type { ColumnType, Generated } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './column-types.ts';

// The contact-import tasks and their stored chunks tables: Kysely's view of what the migrations in ../migrations create.

export interface ImportTasksTable {
  id: Generated<number>;
  owner_id: number;
  created_by_sub_user_id: number | null;
  kind: 'bulk' | 'csv';
  status: Generated<'pending' | 'running' | 'completed' | 'failed'>;
  sealed: Generated<boolean>;
  total: Generated<number>;
  chunk_count: Generated<number>;
  next_chunk: Generated<number>;
  processed: Generated<number>;
  created: Generated<number>;
  skipped: Generated<number>;
  failed: Generated<number>;
  error_count: Generated<number>;
  errors: ColumnType<unknown, string | undefined, string>;
  failure_reason: string | null;
  file_name: string | null;
  locked_by: string | null;
  locked_at: NullableTimestamp;
  progress_at: NullableTimestamp;
  stalled_claims: Generated<number>;
  /** A CSV task's data columns, header as written -> contact_data key (migration 0010); null for bulk tasks. */
  columns: Json;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export interface ImportTaskChunksTable {
  task_id: number;
  seq: number;
  first_index: number;
  row_count: number;
  rows: Json;
}

export interface ImportsTables {
  import_tasks: ImportTasksTable;
  import_task_chunks: ImportTaskChunksTable;
}

import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { queueContactsNow } from '../contact-lifecycle/queueing.ts';
import { QUEUED_ON_CREATION } from '../contact-lifecycle/contact-states.ts';
import type { DueWake } from '../contact-lifecycle/queueing.ts';
import { insertContacts } from '../contacts/contacts.repository.ts';
import { MAX_STORED_ERRORS, type ImportError } from './imports.repository.ts';
import type { PreparedChunk } from './import-rows.ts';

/**
 * The concurrency-critical SQL of the importer. Invariants:
 * - a task is processed by the worker holding its lease (locked_by); a lease not renewed
 *   for leaseMs may be taken over (the holder crashed), and every chunk commit re-checks
 *   the lease under the task's row lock, so two workers never apply the same chunk;
 * - a chunk's contacts, the task's counters and the cursor (next_chunk) change in one
 *   transaction, so after any crash each chunk is either wholly applied or not at all.
 */
export interface ClaimedTask {
  id: number;
  owner_id: number;
  next_chunk: number;
  chunk_count: number;
}

export async function claimTask(db: Db, workerId: string, leaseMs: number): Promise<ClaimedTask | undefined> {
  const result = await sql<ClaimedTask>`
    UPDATE import_tasks
       SET status = 'running', locked_by = ${workerId}, locked_at = now(),
           -- A claim restarts the progress clock: time the service was down is no stall.
           started_at = COALESCE(started_at, now()), progress_at = now(), stalled_claims = stalled_claims + 1
     WHERE id = (
       SELECT id FROM import_tasks
        WHERE sealed
          AND (status = 'pending' OR (status = 'running' AND (locked_at IS NULL OR locked_at < now() - make_interval(secs => ${leaseMs / 1000}))))
        ORDER BY id
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
    RETURNING id, owner_id, next_chunk, chunk_count`.execute(db);
  return result.rows[0];
}

export async function releaseTask(db: Db, taskId: number, workerId: string) {
  await db.updateTable('import_tasks').set({ locked_by: null, locked_at: null }).where('id', '=', taskId).where('locked_by', '=', workerId).execute();
}

export async function loadChunk(db: Db, taskId: number, seq: number) {
  return db.selectFrom('import_task_chunks').select(['seq', 'first_index', 'rows']).where('task_id', '=', taskId).where('seq', '=', seq).executeTakeFirst();
}

/**
 * Applies one prepared chunk. Returns false (and changes nothing) when the lease was lost
 * or the cursor moved: another worker owns the task now, or the sweeper ended it.
 */
export async function applyChunk(db: Db, input: { taskId: number; workerId: string; chunk: PreparedChunk; dialerWake: DueWake | undefined }): Promise<{ applied: boolean; done: boolean }> {
  const { taskId, workerId, chunk } = input;
  return db.transaction().execute(async (trx) => {
    const task = await trx
      .selectFrom('import_tasks')
      .select(['owner_id', 'created_by_sub_user_id', 'status', 'locked_by', 'next_chunk', 'chunk_count', 'error_count'])
      .where('id', '=', taskId)
      .forUpdate()
      .executeTakeFirst();
    if (!task || task.status !== 'running' || task.locked_by !== workerId || task.next_chunk !== chunk.seq) return { applied: false, done: false };

    const campaignIds = [...new Set(chunk.rows.map((r) => r.campaignId))];
    // The uploader's rights now, not at upload: a sub-user's grant may have been taken back since.
    const subUserId = task.created_by_sub_user_id;
    const campaigns = campaignIds.length
      ? await trx.selectFrom('campaigns').select(['id', 'auto_calls']).where('id', 'in', campaignIds).where('owner_id', '=', task.owner_id)
        .$if(subUserId !== null, (qb) => qb.where((eb) => eb.exists(
          eb.selectFrom('campaign_sub_users as g').select('g.campaign_id').whereRef('g.campaign_id', '=', 'campaigns.id').where('g.sub_user_id', '=', subUserId!),
        )))
        .execute()
      : [];
    const known = new Map(campaigns.map((c) => [c.id, c.auto_calls]));
    const failed: ImportError[] = [...chunk.failed];
    const rows = chunk.rows.filter((r) => {
      if (known.has(r.campaignId)) return true;
      failed.push({ index: r.index, phone_number: r.input, reason: subUserId === null ? `campaign ${r.campaignId} no longer exists` : `campaign ${r.campaignId} no longer exists or is no longer granted to the sub-user who uploaded` });
      return false;
    });

    const inserted = await insertContacts(trx, task.owner_id, rows.map((r) => ({
      campaign_id: r.campaignId, phone_number: r.phone, status: r.status, contact_data: r.contactData, timezone: r.timezone, creation_method: 'import' as const,
    })));
    const created = new Set(inserted.map((r) => `${r.campaign_id}|${r.phone_number}`));
    const skipped: ImportError[] = [...chunk.skipped];
    for (const r of rows) {
      if (!created.has(`${r.campaignId}|${r.phone}`)) skipped.push({ index: r.index, phone_number: r.input, reason: 'duplicate: the campaign already has this phone number' });
    }

    const toQueue = inserted.filter((r) => known.get(r.campaign_id) && QUEUED_ON_CREATION.includes(r.status)).map((r) => r.id);
    if (toQueue.length > 0) await queueContactsNow(trx, { contactIds: toQueue, reason: 'import', wake: input.dialerWake });

    const errors = [...failed, ...skipped].sort((a, b) => a.index - b.index);
    const room = Math.max(0, MAX_STORED_ERRORS - task.error_count);
    const done = chunk.seq + 1 >= task.chunk_count;
    await trx
      .updateTable('import_tasks')
      .set((eb) => ({
        processed: eb('processed', '+', chunk.rowCount),
        created: eb('created', '+', inserted.length),
        skipped: eb('skipped', '+', skipped.length),
        failed: eb('failed', '+', failed.length),
        error_count: eb('error_count', '+', errors.length),
        ...(room > 0 && errors.length > 0 ? { errors: sql`errors || ${JSON.stringify(errors.slice(0, room))}::jsonb` } : {}),
        next_chunk: chunk.seq + 1,
        locked_at: sql<Date>`now()`,
        progress_at: sql<Date>`now()`,
        stalled_claims: 0,
        ...(done ? { status: 'completed' as const, finished_at: sql<Date>`now()`, locked_by: null, locked_at: null } : {}),
      }))
      .where('id', '=', taskId)
      .execute();
    await trx.deleteFrom('import_task_chunks').where('task_id', '=', taskId).where('seq', '=', chunk.seq).execute();
    return { applied: true, done };
  });
}

/** Claims in a row without a committed chunk after which a task is taken to fail every worker. */
export const MAX_STALLED_CLAIMS = 5;

/**
 * Ends tasks that stopped moving, and drops their stored rows:
 *  - a task claimed MAX_STALLED_CLAIMS times without committing a chunk, whose lease has
 *    run out: it crashes (or errors) every worker that takes it. Time alone does not end a
 *    claimed task: a service that was down for an hour resumes its imports;
 *  - an upload that sent no data for stuckMs.
 */
export async function sweepStuckTasks(db: Db, stuckMs: number, leaseMs: number): Promise<number[]> {
  const ended = await sql<{ id: number }>`
    UPDATE import_tasks
       SET status = 'failed', finished_at = now(), locked_by = NULL, locked_at = NULL,
           failure_reason = CASE WHEN sealed
             THEN ${`taken ${MAX_STALLED_CLAIMS} times without progress: the import was stopped`}
             ELSE 'the upload did not complete' END
     WHERE (status = 'running' AND stalled_claims >= ${MAX_STALLED_CLAIMS}
            AND (locked_at IS NULL OR locked_at < now() - make_interval(secs => ${leaseMs / 1000})))
        OR (status = 'pending' AND NOT sealed AND COALESCE(progress_at, created_at) < now() - make_interval(secs => ${stuckMs / 1000}))
    RETURNING id`.execute(db);
  const ids = ended.rows.map((r) => r.id);
  if (ids.length > 0) await db.deleteFrom('import_task_chunks').where('task_id', 'in', ids).execute();
  return ids;
}

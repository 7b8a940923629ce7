import { columns } from '../../db/columns.ts';
import type { Db } from '../../db/connection.ts';
import type { PROMPT_STATUSES } from './campaigns.schemas.ts';

/** All SQL for prompt_history. Every function takes a db handle or a transaction. */

export interface NewPromptHistory {
  campaign_id: number;
  prompt: unknown;
  status: 'pending' | 'auto_approved';
  created_at: Date;
  created_by_user_id: number | null;
  created_by_sub_user_id: number | null;
  approved_by_user_id: number | null;
  approved_at: Date | null;
}

export async function insertPromptHistory(db: Db, row: NewPromptHistory) {
  const { id } = await db
    .insertInto('prompt_history')
    .values({
      ...columns(row, ['campaign_id', 'status', 'created_at', 'created_by_user_id', 'created_by_sub_user_id', 'approved_by_user_id', 'approved_at']),
      prompt_data: JSON.stringify({ prompt: row.prompt ?? null }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Entries with the names of who made and who decided them, newest first. */
function withPeople(db: Db) {
  return db
    .selectFrom('prompt_history as h')
    .leftJoin('users as cu', 'cu.id', 'h.created_by_user_id')
    .leftJoin('sub_users as cs', 'cs.id', 'h.created_by_sub_user_id')
    .leftJoin('users as au', 'au.id', 'h.approved_by_user_id')
    .leftJoin('sub_users as asu', 'asu.id', 'h.approved_by_sub_user_id')
    .select([
      'h.id',
      'h.campaign_id',
      'h.prompt_data',
      'h.created_at',
      'h.status',
      'h.created_by_sub_user_id',
      'h.created_by_user_id',
      'cu.email as created_by_user_email',
      'cu.full_name as created_by_user_full_name',
      'cs.email as created_by_sub_user_email',
      'cs.full_name as created_by_sub_user_full_name',
      'h.approved_by_user_id',
      'h.approved_by_sub_user_id',
      'h.approved_at',
      'h.approval_comment',
      'au.email as approved_by_user_email',
      'au.full_name as approved_by_user_full_name',
      'asu.email as approved_by_sub_user_email',
      'asu.full_name as approved_by_sub_user_full_name',
    ])
    .orderBy('h.id', 'desc');
}

const typed = <R extends { status: string; prompt_data: unknown }>(row: R) => ({
  ...row,
  status: row.status as (typeof PROMPT_STATUSES)[number],
  prompt_data: row.prompt_data as Record<string, unknown>,
});

export const listPromptHistory = async (db: Db, campaignId: number) =>
  (await withPeople(db).where('h.campaign_id', '=', campaignId).execute()).map(typed);

export async function findPromptHistory(db: Db, campaignId: number, historyId: number) {
  const row = await withPeople(db).where('h.campaign_id', '=', campaignId).where('h.id', '=', historyId).executeTakeFirst();
  return row && typed(row);
}

/**
 * Decides a pending entry. The status guard makes a decision happen once even when two
 * arrive together: the loser updates nothing and gets false.
 */
export async function decidePromptHistory(
  db: Db,
  input: { id: number; status: 'approved' | 'rejected'; userId: number; at: Date; comment: string | null },
) {
  const row = await db
    .updateTable('prompt_history')
    .set({ status: input.status, approved_by_user_id: input.userId, approved_at: input.at, approval_comment: input.comment })
    .where('id', '=', input.id)
    .where('status', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export const findLatestApproved = (db: Db, campaignId: number) =>
  db
    .selectFrom('prompt_history')
    .select(['id', 'prompt_data'])
    .where('campaign_id', '=', campaignId)
    .where('status', 'in', ['approved', 'auto_approved'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { Database } from '../../db/schema.ts';
import type { MessageJobRow, MessageRow } from '../../db/tables/messaging.ts';
import type { Principal } from '../auth/principal.ts';
import { cutToByteBudget } from '../../shared/list-budget.ts';

/**
 * The SQL of the Messages API (reads only: messages rows are written by the text sender and the
 * inbound path, jobs by message-jobs.repository.ts). Every read goes through visibleTo, the
 * campaign rule of campaign-access.ts applied to the messages and message_jobs tables.
 */

/** An account sees its campaigns' texts; a sub-user those of the campaigns granted to it. */
function visibleTo(principal: Principal, table: 'messages' | 'message_jobs') {
  return (eb: ExpressionBuilder<Database, any>): Expression<SqlBool> => {
    const owned = eb(sql.ref(`${table}.owner_id`), '=', principal.ownerId);
    if (principal.kind === 'user') return owned;
    return eb.and([
      owned,
      eb.exists(eb.selectFrom('campaign_sub_users as g').select(sql`1`.as('one'))
        .where('g.sub_user_id', '=', principal.subUserId).whereRef('g.campaign_id', '=', sql.ref(`${table}.campaign_id`))),
    ]);
  };
}

export interface MessageFilters {
  campaignIds?: number[] | undefined;
  contactId?: number | undefined;
  direction?: 'outbound' | 'inbound' | undefined;
  sources?: string[] | undefined;
  statuses?: string[] | undefined;
  purposes?: string[] | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
  /** A substring of the body, case-insensitive; % and _ are literal. */
  text?: string | undefined;
}

/** LIKE's wildcards and its escape character, written as themselves. */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The one WHERE clause of the page and its count. */
export function matchingMessages(db: Db, principal: Principal, f: MessageFilters) {
  let q = db.selectFrom('messages').where(visibleTo(principal, 'messages'));
  if (f.campaignIds && f.campaignIds.length > 0) q = q.where('messages.campaign_id', 'in', f.campaignIds);
  if (f.contactId !== undefined) q = q.where('messages.contact_id', '=', f.contactId);
  if (f.direction !== undefined) q = q.where('messages.direction', '=', f.direction);
  if (f.sources && f.sources.length > 0) q = q.where('messages.source', 'in', f.sources as never);
  if (f.statuses && f.statuses.length > 0) q = q.where('messages.status', 'in', f.statuses as never);
  if (f.purposes && f.purposes.length > 0) q = q.where('messages.purpose', 'in', f.purposes as never);
  if (f.createdFrom !== undefined) q = q.where('messages.created_at', '>=', new Date(f.createdFrom));
  if (f.createdTo !== undefined) q = q.where('messages.created_at', '<=', new Date(f.createdTo));
  if (f.text !== undefined) q = q.where(sql<SqlBool>`messages.body ILIKE ${`%${likeLiteral(f.text)}%`} ESCAPE '\\'`);
  return q;
}

/**
 * One page, newest first: the ids are cut on the (owner_id, id desc) or (campaign_id, id desc)
 * index first, then only the page's rows are read (a body is up to 1600 characters).
 */
export async function messagesPage(db: Db, args: { principal: Principal; filters: MessageFilters; skip: number; limit: number }): Promise<MessageRow[]> {
  const ids = matchingMessages(db, args.principal, args.filters).select('messages.id').orderBy('messages.id', 'desc').limit(args.limit).offset(args.skip);
  const page = db.selectFrom('messages').selectAll().where('messages.id', 'in', ids).orderBy('messages.id', 'desc');
  return (await cutToByteBudget(db, page)) as MessageRow[];
}

export const findMessage = (db: Db, id: number) => db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst();

/** The contact's newest `limit` texts, oldest first. */
export async function contactMessages(db: Db, contactId: number, limit: number): Promise<MessageRow[]> {
  const rows = await db.selectFrom('messages').selectAll().where('contact_id', '=', contactId).orderBy('id', 'desc').limit(limit).execute();
  return rows.reverse();
}

export interface TimelineCall {
  id: number;
  status: string;
  action_status: string | null;
  call_type: string | null;
  call_duration: number | null;
  start_time: Date | null;
  end_time: Date | null;
  created_at: Date;
}

/** The contact's newest `limit` calls (a call not yet started is placed at its creation). */
export function contactCalls(db: Db, contactId: number, limit: number): Promise<TimelineCall[]> {
  return db.selectFrom('calls')
    .select(['id', 'status', 'action_status', 'call_type', 'call_duration', 'start_time', 'end_time', 'created_at'])
    .where('contact_id', '=', contactId).orderBy('id', 'desc').limit(limit)
    .$castTo<TimelineCall>().execute();
}

export interface MessageJobFilters {
  contactId?: number | undefined;
  campaignId?: number | undefined;
  statuses?: string[] | undefined;
}

export function matchingJobs(db: Db, principal: Principal, f: MessageJobFilters) {
  let q = db.selectFrom('message_jobs').where(visibleTo(principal, 'message_jobs'));
  if (f.contactId !== undefined) q = q.where('message_jobs.contact_id', '=', f.contactId);
  if (f.campaignId !== undefined) q = q.where('message_jobs.campaign_id', '=', f.campaignId);
  if (f.statuses && f.statuses.length > 0) q = q.where('message_jobs.status', 'in', f.statuses as never);
  return q;
}

const JOB_COLUMNS = [
  'id', 'campaign_id', 'contact_id', 'call_id', 'purpose', 'body', 'status', 'due_at', 'reason', 'message_id',
  'sent_by_user_id', 'sent_by_sub_user_id', 'created_at', 'updated_at',
] as const;

export type MessageJobView = Pick<MessageJobRow, (typeof JOB_COLUMNS)[number]>;

/** Newest first (the queue's own order is due_at; an operator asks what was queued last). */
export function messageJobsPage(db: Db, args: { principal: Principal; filters: MessageJobFilters; skip: number; limit: number }): Promise<MessageJobView[]> {
  return matchingJobs(db, args.principal, args.filters).select(JOB_COLUMNS.map((c) => `message_jobs.${c}` as const))
    .orderBy('message_jobs.id', 'desc').limit(args.limit).offset(args.skip).execute();
}

export const findMessageJob = (db: Db, id: number) =>
  db.selectFrom('message_jobs').select(JOB_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();

/** A sample contact of the campaign for a preview: the newest one. */
export const sampleContactOf = (db: Db, campaignId: number) =>
  db.selectFrom('contacts').select('id').where('campaign_id', '=', campaignId).orderBy('id', 'desc').limit(1).executeTakeFirst();

/** The contact's latest call, which a draft writes about when none is named. */
export const latestCallOf = (db: Db, contactId: number) =>
  db.selectFrom('calls').select(['id', 'contact_id']).where('contact_id', '=', contactId).orderBy('id', 'desc').limit(1).executeTakeFirst();

export const findCallOf = (db: Db, id: number) =>
  db.selectFrom('calls').select(['id', 'contact_id']).where('id', '=', id).executeTakeFirst();

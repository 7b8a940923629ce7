import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { boundedCount } from '../../db/bounded-list.ts';
import type { Db } from '../../db/connection.ts';
import type { Database } from '../../db/schema.ts';
import type { AuditKind, SubjectType } from './audit.kinds.ts';

/** All SQL of the audit trail. Rows are only inserted: the database refuses UPDATE and DELETE (migration 0016). */

export interface NewAuditEvent {
  owner_id: number;
  actor_user_id: number | null;
  actor_sub_user_id: number | null;
  actor_api_key_id: number | null;
  /** The label, or an expression that finds it in the same statement. */
  actor_label: Expression<string>;
  kind: AuditKind;
  subject_type: SubjectType;
  subject_id: number | null;
  details: Record<string, unknown>;
  ip: string | null;
  user_agent: string | null;
}

export async function insertAuditEvent(db: Db, row: NewAuditEvent) {
  await db
    .insertInto('audit_events')
    .values({
      owner_id: row.owner_id,
      actor_user_id: row.actor_user_id,
      actor_sub_user_id: row.actor_sub_user_id,
      actor_api_key_id: row.actor_api_key_id,
      actor_label: row.actor_label,
      kind: row.kind,
      subject_type: row.subject_type,
      subject_id: row.subject_id,
      details: JSON.stringify(row.details),
      ip: row.ip,
      user_agent: row.user_agent,
    })
    .execute();
}

/** The actor filter: one id of a kind, or a piece of the label. */
export type ActorFilter = { column: 'actor_user_id' | 'actor_sub_user_id' | 'actor_api_key_id'; id: number } | { labelContains: string };

export interface AuditFilter {
  ownerId: number;
  since?: Date | undefined;
  until?: Date | undefined;
  kinds?: AuditKind[] | undefined;
  actor?: ActorFilter | undefined;
  skip: number;
  limit: number;
}

// LIKE wildcards typed by the client match themselves.
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function matching(f: AuditFilter) {
  return (eb: ExpressionBuilder<Database, 'audit_events'>): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [eb('owner_id', '=', f.ownerId)];
    if (f.since) conditions.push(eb('created_at', '>=', f.since));
    if (f.until) conditions.push(eb('created_at', '<', f.until));
    if (f.kinds?.length) conditions.push(eb('kind', 'in', f.kinds));
    if (f.actor && 'column' in f.actor) conditions.push(eb(f.actor.column, '=', f.actor.id));
    else if (f.actor) conditions.push(sql<SqlBool>`actor_label ILIKE ${`%${likeLiteral(f.actor.labelContains)}%`} ESCAPE '\\'`);
    return eb.and(conditions);
  };
}

/**
 * A page of the account's events, newest first, and the number of all that match: exact up to
 * EXACT_COUNT_UP_TO, past that the planner's estimate (an exact count of 200,000 events took
 * 28 ms and grew with the account, docs/scale.md).
 */
export async function listAuditEvents(db: Db, f: AuditFilter) {
  const where = matching(f);
  const counted = await boundedCount(db, db.selectFrom('audit_events').where(where));
  const rows = await db
    .selectFrom('audit_events')
    .select(['id', 'actor_user_id', 'actor_sub_user_id', 'actor_api_key_id', 'actor_label', 'kind', 'subject_type', 'subject_id', 'details', 'ip', 'user_agent', 'created_at'])
    .where(where)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(f.skip)
    .limit(f.limit)
    .execute();
  return { rows, count: counted.count, exact: counted.exact };
}

/** Deletes events past retention (400 days) through the database's own purge function; answers how many. */
export async function purgeExpiredAuditEvents(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT purge_expired_audit_events() AS n`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

import { sql, type Expression } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { withStatementTimeout } from '../../db/bounded-list.ts';
import { forbidden } from '../../http/errors.ts';
import type { Principal } from '../auth/principal.ts';
import type { AuditKind, SubjectType } from './audit.kinds.ts';
import * as repo from './audit.repository.ts';
import type { AuditEvent, AuditListQuery } from './audit.schemas.ts';

/** Where a request came from; a FastifyRequest is one (its ip honours TRUST_PROXY). */
export interface AuditRequest {
  ip?: string | undefined;
  headers?: { 'user-agent'?: string | undefined } | undefined;
}

export interface AuditEntry {
  principal: Principal;
  /** The HTTP request, for the ip and user agent; left out when the change did not come over HTTP. */
  request?: AuditRequest | undefined;
  kind: AuditKind;
  subject: { type: SubjectType; id: number | null };
  /** What changed, as JSON; never secrets. */
  details?: Record<string, unknown>;
}

const MAX_USER_AGENT = 512;

/** Who acted: the ids the principal knows and the label the event shows (found in the INSERT itself). */
function actorOf(p: Principal): Pick<repo.NewAuditEvent, 'actor_user_id' | 'actor_sub_user_id' | 'actor_api_key_id' | 'actor_label'> {
  if (p.kind === 'sub_user') {
    return { actor_user_id: null, actor_sub_user_id: p.subUserId, actor_api_key_id: null, actor_label: sql<string>`coalesce((SELECT username FROM sub_users WHERE id = ${p.subUserId}), ${`sub-user #${p.subUserId}`})` };
  }
  if (p.apiKey) {
    return { actor_user_id: p.userId, actor_sub_user_id: null, actor_api_key_id: p.apiKey.id, actor_label: sql<string>`${`api key ${p.apiKey.name ?? `#${p.apiKey.id}`}`}::text` };
  }
  return { actor_user_id: p.userId, actor_sub_user_id: null, actor_api_key_id: null, actor_label: sql<string>`coalesce((SELECT email FROM users WHERE id = ${p.userId}), ${`user #${p.userId}`})` };
}

/**
 * Writes one audit event. Pass the transaction of the change when there is one, so the event
 * and the change commit or roll back together. Exported for every module that changes
 * something the audit trail covers (see audit.kinds.ts).
 */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  const userAgent = entry.request?.headers?.['user-agent'];
  await repo.insertAuditEvent(db, {
    owner_id: entry.principal.ownerId,
    ...actorOf(entry.principal),
    kind: entry.kind,
    subject_type: entry.subject.type,
    subject_id: entry.subject.id,
    details: entry.details ?? {},
    ip: entry.request?.ip ?? null,
    user_agent: userAgent ? userAgent.slice(0, MAX_USER_AGENT) : null,
  });
}

const ACTOR_ID = /^(user|sub_user|api_key):(\d{1,15})$/;
const ACTOR_COLUMNS = { user: 'actor_user_id', sub_user: 'actor_sub_user_id', api_key: 'actor_api_key_id' } as const;

/** `user:<id>`, `sub_user:<id>` or `api_key:<id>` name one actor; anything else is a piece of the label. */
export function parseActor(actor: string | undefined): repo.ActorFilter | undefined {
  const text = actor?.trim();
  if (!text) return undefined;
  const match = ACTOR_ID.exec(text);
  if (match) return { column: ACTOR_COLUMNS[match[1] as keyof typeof ACTOR_COLUMNS], id: Number(match[2]) };
  return { labelContains: text };
}

const toDate = (v: string | Date | undefined) => (v === undefined ? undefined : v instanceof Date ? v : new Date(v));

type Row = Awaited<ReturnType<typeof repo.listAuditEvents>>['rows'][number];

function present(row: Row): AuditEvent {
  const type = row.actor_api_key_id !== null ? 'api_key' : row.actor_sub_user_id !== null ? 'sub_user' : 'user';
  return {
    id: row.id,
    kind: row.kind as AuditKind,
    created_at: row.created_at,
    actor: { type, user_id: row.actor_user_id, sub_user_id: row.actor_sub_user_id, api_key_id: row.actor_api_key_id, label: row.actor_label },
    subject: { type: row.subject_type as SubjectType, id: row.subject_id },
    details: (row.details ?? {}) as Record<string, unknown>,
    ip: row.ip,
    user_agent: row.user_agent,
  };
}

/**
 * The account's audit trail, newest first. Account owners only: a sub-user gets 403. Its queries
 * run on one connection under the API's statement timeout (a stopped one is a 503).
 */
export async function listAuditEventsPage(input: { db: Db; principal: Principal; query: AuditListQuery; statementTimeoutMs: number }) {
  if (input.principal.kind !== 'user') throw forbidden();
  const { since, until, actor, kind, skip, limit } = input.query;
  const filters = Object.entries({ since, until, actor, kind }).filter(([, v]) => v !== undefined && v !== '').map(([k]) => k);
  const { rows, count, exact } = await withStatementTimeout(input.db, { timeoutMs: input.statementTimeoutMs, list: 'audit events', filters }, (db) =>
    repo.listAuditEvents(db, {
      ownerId: input.principal.ownerId,
      since: toDate(since),
      until: toDate(until),
      kinds: kind,
      actor: parseActor(actor),
      skip,
      limit,
    }));
  return { data: rows.map(present), count, count_exact: exact };
}

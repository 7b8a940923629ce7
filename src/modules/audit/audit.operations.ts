import { Detail, ErrorResponses } from '../../http/schemas.ts';
import { AUDIT_KINDS_DOC } from './audit.kinds.ts';
import { AuditEventList, AuditListQuery } from './audit.schemas.ts';

/** The OpenAPI description of the audit operations; audit.routes.ts registers them. */

const tags = ['audit'];

export const ListAuditEvents = {
  operationId: 'list_audit_events',
  tags,
  summary: 'List the account\'s audit events',
  description: `Who changed what that matters legally or for security, when and from where, newest first (created_at, then id, descending). Account owners only: a sub-user gets 403. Only the caller's own account's events are ever listed.

count is the number of matching events: exact while at most 1000 match, past that the database's estimate, and count_exact says which. A list whose queries take longer than the service's statement timeout (API_STATEMENT_TIMEOUT_MS, default 3 s) is stopped and answered 503 naming its filters.

Events are append-only: the database refuses to change or delete them, and keeps them at least a year (purge_expired_audit_events() may delete events older than 400 days; nothing runs it by itself). An event is written in the same transaction as its change, so a change that failed left none. A request that changes nothing (granting a campaign already granted, a PUT that leaves is_paused as it was) writes none.

Kinds:
${AUDIT_KINDS_DOC}`,
  querystring: AuditListQuery,
  response: { 200: AuditEventList, ...ErrorResponses, 503: Detail },
} as const;

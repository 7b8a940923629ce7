import type { App } from '../../app.ts';
import * as ops from './audit.operations.ts';
import { listAuditEventsPage } from './audit.service.ts';

/** The audit trail (mounted at /api/v1/audit-events; authenticated). */
export async function auditRoutes(app: App) {
  const { db } = app.deps;

  app.get('/', { schema: ops.ListAuditEvents }, async (request) =>
    listAuditEventsPage({ db, principal: request.principal, query: request.query, statementTimeoutMs: app.deps.config.API_STATEMENT_TIMEOUT_MS }));
}

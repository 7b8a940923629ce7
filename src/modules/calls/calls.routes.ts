import type { App } from '../../app.ts';
import * as ops from './calls.operations.ts';
import { listCallsPage, requireCall } from './calls.service.ts';

export async function callsRoutes(app: App) {
  const { db, config } = app.deps;

  app.get('/', { schema: ops.ListCalls }, async (request) =>
    listCallsPage({ db, principal: request.principal, query: request.query, defaultCountry: config.DEFAULT_COUNTRY, statementTimeoutMs: config.API_STATEMENT_TIMEOUT_MS }));
  app.get('/:id', { schema: ops.ReadCall }, async (request) =>
    requireCall(db, request.principal, request.params.id));
}

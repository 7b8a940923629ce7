import type { App } from '../../app.ts';
import * as ops from './users.operations.ts';
import { readDisplayPreferences, updateDisplayPreferences } from './display-preferences.service.ts';
import { createAccount, describeCaller } from './users.service.ts';

export async function usersRoutes(app: App) {
  const { db } = app.deps;

  app.get('/me', { schema: ops.ReadCaller }, async (request) => describeCaller(db, request.principal));
  app.get('/me/preferences', { schema: ops.ReadDisplayPreferences }, async (request) => readDisplayPreferences(db, request.principal));
  app.put('/me/preferences', { schema: ops.UpdateDisplayPreferences }, async (request) => updateDisplayPreferences(db, request.principal, request.body));
  app.post('/', { schema: ops.CreateAccount }, async (request) => createAccount(db, request.principal, request.body));
}

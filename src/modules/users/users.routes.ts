import type { App } from '../../app.ts';
import * as ops from './users.operations.ts';
import { createAccount, describeCaller } from './users.service.ts';

export async function usersRoutes(app: App) {
  const { db } = app.deps;

  app.get('/me', { schema: ops.ReadCaller }, async (request) => describeCaller(db, request.principal));
  app.post('/', { schema: ops.CreateAccount }, async (request) => createAccount(db, request.principal, request.body));
}

import { sql } from 'kysely';
import { Type } from 'typebox';
import type { App } from '../../app.ts';

export async function healthRoutes(app: App) {
  const Status = Type.Object({ status: Type.String() });
  app.get('/healthz', { schema: { hide: true, response: { 200: Status } } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true, response: { 200: Status, 503: Status } } }, async (_req, reply) => {
    try {
      await sql`SELECT 1`.execute(app.deps.db);
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'database unreachable' });
    }
  });
}

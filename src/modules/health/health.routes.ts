import { sql } from 'kysely';
import type { App } from '../../app.ts';
import * as ops from './health.operations.ts';

const PROBES = new Set(['/healthz', '/readyz']);

/** A load balancer's or orchestrator's probe: polled every few seconds, so its request lines are at debug (app.ts). */
export const isHealthProbe = (url: string | undefined) => PROBES.has((url ?? '').split('?')[0]!);

export async function healthRoutes(app: App) {
  app.get('/healthz', { schema: ops.Liveness }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: ops.Readiness }, async (_req, reply) => {
    try {
      await sql`SELECT 1`.execute(app.deps.db);
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'database unreachable' });
    }
  });
}

import { createHash, timingSafeEqual } from 'node:crypto';
import type { App } from '../../app.ts';
import { unauthorized } from '../../http/errors.ts';
import * as ops from './metrics.operations.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics, the Prometheus exposition, on the API's own port. The rule:
 * METRICS_TOKEN unset → no /metrics route (404) and no HTTP timing hooks;
 * set → `Authorization: Bearer <METRICS_TOKEN>` is required (401 otherwise).
 * Not in the OpenAPI document: it is for the monitoring system, not API clients.
 *
 * Called on the root instance before the route plugins, so the timing hook covers every route.
 */
export function registerMetrics(app: App) {
  const token = app.deps.config.METRICS_TOKEN;
  if (!token) return;
  const metrics = app.deps.metrics;
  metrics.enableProcessMetrics();
  const expected = digest(`Bearer ${token}`);

  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL: the label set stays bounded.
    const route = request.routeOptions.url ?? '(unmatched)';
    metrics.httpDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: ops.ReadMetrics }, async (request, reply) => {
    const given = request.headers.authorization;
    if (typeof given !== 'string' || !timingSafeEqual(digest(given.replace(/^bearer /i, 'Bearer ')), expected)) {
      throw unauthorized();
    }
    const text = await metrics.registry.metrics();
    return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  });
}

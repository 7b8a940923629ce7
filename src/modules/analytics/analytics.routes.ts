import type { App } from '../../app.ts';
import type { Principal } from '../auth/principal.ts';
import * as ops from './analytics.operations.ts';
import { detailedAnalytics } from './detailed-report.ts';
import type { ScopeInput } from './analytics.service.ts';
import { trendsAnalytics } from './trends-report.ts';

/** Detailed analytics and trends (mounted at /api/v1/analytics; authenticated). */
export async function analyticsRoutes(app: App) {
  const { analyticsReports: reports, clock } = app.deps;
  // The app serves the reports, so closing it ends their connections (closeDeps does too).
  app.addHook('onClose', () => reports.close());

  // What every report takes: who asks, when, and the period and filters of the query.
  const scopeOf = (principal: Principal, q: ScopeQuery) => ({
    reports,
    principal,
    now: clock.now(),
    startDate: q.start_date,
    endDate: q.end_date,
    campaignId: q.campaign_id,
    callTypes: q.call_types,
    timezone: q.timezone,
  });

  app.get('/detailed', { schema: ops.DetailedAnalytics }, async (request) =>
    detailedAnalytics({ ...scopeOf(request.principal, request.query), compareWithPrevious: request.query.compare_with_previous }));
  app.get('/trends', { schema: ops.Trends }, async (request) =>
    trendsAnalytics({ ...scopeOf(request.principal, request.query), metric: request.query.metric, granularity: request.query.granularity }));
}

/** The query parameters both reports share. */
interface ScopeQuery {
  start_date?: ScopeInput['startDate'];
  end_date?: ScopeInput['endDate'];
  campaign_id?: ScopeInput['campaignId'];
  call_types?: ScopeInput['callTypes'];
  timezone?: ScopeInput['timezone'];
}

import type { App } from '../../app.ts';
import { ErrorResponses } from '../../shared/schemas.ts';
import { DetailedQuery, DetailedResponse, PERIOD_DESCRIPTION, TrendsQuery, TrendsResponse } from './analytics.schemas.ts';
import { detailedAnalytics } from './analytics.detailed.ts';
import { trendsAnalytics } from './analytics.trends.ts';

const COMMON_RULES = `${PERIOD_DESCRIPTION} start_date defaults to one month before end_date, end_date to now; start_date after end_date is 422. Only calls of campaigns visible to the caller are counted (a sub-user: campaigns granted to it). A successful call has status finished and action_status interested, scheduled or transferred. Durations are seconds; cost is summed as stored on calls (unit not defined by the service).`;

/** Detailed analytics and trends (mounted at /api/v1/analytics; authenticated). */
export async function analyticsRoutes(app: App) {
  const { analyticsReports: reports, clock } = app.deps;
  // The app serves the reports, so closing it ends their connections (closeDeps does too).
  app.addHook('onClose', () => reports.close());

  app.get(
    '/detailed',
    {
      schema: {
        tags: ['analytics'],
        summary: 'Detailed analytics of the calls in a period',
        description: `Totals and breakdowns by status, action status, call type, campaign and hour of day, optionally compared with the preceding period of equal length. ${COMMON_RULES} See docs/analytics.md.`,
        querystring: DetailedQuery,
        response: { 200: DetailedResponse, ...ErrorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      return detailedAnalytics({
        reports,
        principal: request.principal,
        now: clock.now(),
        startDate: q.start_date,
        endDate: q.end_date,
        campaignId: q.campaign_id,
        callTypes: q.call_types,
        timezone: q.timezone,
        compareWithPrevious: q.compare_with_previous,
      });
    },
  );

  app.get(
    '/trends',
    {
      schema: {
        tags: ['analytics'],
        summary: 'One metric per time bucket over a period',
        description: `Every bucket of the period is present, zeros included, with the total. A metric other than calls, cost, duration or successful is 422. ${COMMON_RULES} See docs/analytics.md.`,
        querystring: TrendsQuery,
        response: { 200: TrendsResponse, ...ErrorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      return trendsAnalytics({
        reports,
        principal: request.principal,
        now: clock.now(),
        startDate: q.start_date,
        endDate: q.end_date,
        campaignId: q.campaign_id,
        callTypes: q.call_types,
        timezone: q.timezone,
        metric: q.metric,
        granularity: q.granularity,
      });
    },
  );
}

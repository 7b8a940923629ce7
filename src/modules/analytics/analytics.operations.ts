import { ErrorResponses } from '../../http/schemas.ts';
import { DetailedQuery, DetailedResponse, PERIOD_DESCRIPTION, TrendsQuery, TrendsResponse } from './analytics.schemas.ts';

/** The OpenAPI description of each analytics operation; analytics.routes.ts registers them. */

const COMMON_RULES = `${PERIOD_DESCRIPTION} start_date defaults to one month before end_date, end_date to now; start_date after end_date is 422. Only calls of campaigns visible to the caller are counted (a sub-user: campaigns granted to it). A successful call has status finished and action_status interested, scheduled or transferred. Durations are seconds; cost is summed as stored on calls (unit not defined by the service).`;

export const DetailedAnalytics = {
  operationId: 'read_detailed_analytics',
  tags: ['analytics'],
  summary: 'Detailed analytics of the calls in a period',
  description: `Totals and breakdowns by status, action status, call type, campaign and hour of day, optionally compared with the preceding period of equal length. ${COMMON_RULES} See docs/analytics.md.`,
  querystring: DetailedQuery,
  response: { 200: DetailedResponse, ...ErrorResponses },
} as const;

export const Trends = {
  operationId: 'read_analytics_trends',
  tags: ['analytics'],
  summary: 'One metric per time bucket over a period',
  description: `Every bucket of the period is present, zeros included, with the total. A metric other than calls, cost, duration or successful is 422. ${COMMON_RULES} See docs/analytics.md.`,
  querystring: TrendsQuery,
  response: { 200: TrendsResponse, ...ErrorResponses },
} as const;

import { useQuery } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import type { Query } from '../../api/types';

/** Analytics of the calls the caller can see: the detailed report and a metric's trend. */

export const analyticsKeys = {
  detailed: (query: Query<'read_detailed_analytics'>) => ['analytics-detailed', query] as const,
  trends: (query: Query<'read_analytics_trends'>) => ['analytics-trends', query] as const,
};

/** The figures and breakdowns of a period; `enabled` is false while the period is not a valid one. */
export function useDetailedReport(query: Query<'read_detailed_analytics'>, enabled: boolean) {
  return useQuery({
    queryKey: analyticsKeys.detailed(query),
    queryFn: () => must(api.GET('/api/v1/analytics/detailed', { params: { query } })),
    enabled,
  });
}

export function useTrend(query: Query<'read_analytics_trends'>, enabled: boolean) {
  return useQuery({
    queryKey: analyticsKeys.trends(query),
    queryFn: () => must(api.GET('/api/v1/analytics/trends', { params: { query } })),
    enabled,
  });
}

/** About ten years in ms: the longest period the analytics API accepts is ten years. */
const ALL_TIME_MS = 3650 * 24 * 3600 * 1000;

/** The key of one campaign's outcomes (every campaign's: no id), read again as its calls end (campaigns/queries.ts). */
export const campaignOutcomesKey = (campaignId?: number) => (campaignId === undefined ? ['analytics-campaign-outcomes'] as const : ['analytics-campaign-outcomes', campaignId] as const);

/**
 * One campaign's calls by status and outcome over every call it made (the last ten years, the
 * longest period the report takes); read again as its calls end (useCampaignFollowLive).
 */
export function useCampaignOutcomes(campaignId: number) {
  return useQuery({
    queryKey: campaignOutcomesKey(campaignId),
    queryFn: () => must(api.GET('/api/v1/analytics/detailed', {
      params: { query: { campaign_id: campaignId, start_date: new Date(Date.now() - ALL_TIME_MS).toISOString() } },
    })),
  });
}

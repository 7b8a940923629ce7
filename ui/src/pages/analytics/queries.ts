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

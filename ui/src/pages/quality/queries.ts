import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import type { Answer, Body } from '../../api/types';

/** Call scores (issue 28): a campaign's scorecard, a call's score, a campaign's score summary. */

export type ScorecardView = Answer<'read_campaign_scorecard'>;
export type CallScoreView = Answer<'read_call_score'>;
export type ScoreSummaryView = Answer<'read_campaign_score_summary'>;
export type ScorecardInput = Body<'update_campaign_scorecard'>;

export const qualityKeys = {
  scorecard: (id: number) => ['campaign-scorecard', id] as const,
  callScore: (id: number) => ['call-score', id] as const,
  summary: (id: number) => ['campaign-score-summary', id] as const,
};

export function useScorecard(campaignId: number) {
  return useQuery({
    queryKey: qualityKeys.scorecard(campaignId),
    queryFn: () => must(api.GET('/api/v1/campaigns/{id}/scorecard', { params: { path: { id: campaignId } } })),
  });
}

export function useSaveScorecard(campaignId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ScorecardInput) => must(api.PUT('/api/v1/campaigns/{id}/scorecard', { params: { path: { id: campaignId } }, body })),
    onSuccess: (saved) => client.setQueryData(qualityKeys.scorecard(campaignId), saved),
  });
}

/** A pending score is asked again now and then: it appears once the judge has answered. */
export function useCallScore(callId: number) {
  return useQuery({
    queryKey: qualityKeys.callScore(callId),
    queryFn: () => must(api.GET('/api/v1/calls/{id}/score', { params: { path: { id: callId } } })),
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? 10_000 : false),
  });
}

export function useScoreSummary(campaignId: number | null, period: { from: string; to: string } | null) {
  return useQuery({
    queryKey: [...qualityKeys.summary(campaignId ?? 0), period?.from, period?.to],
    queryFn: () => must(api.GET('/api/v1/campaigns/{id}/scores/summary', { params: { path: { id: campaignId! }, query: period ?? {} } })),
    enabled: campaignId !== null,
  });
}

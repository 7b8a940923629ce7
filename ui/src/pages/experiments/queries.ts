import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import type { Answer, Body } from '../../api/types';
import { campaignKeys } from '../campaigns/queries';

/** A campaign's experiments (GET/POST /campaigns/{id}/experiments…), their results and the winner made live. */

export type Experiment = Answer<'read_experiment'>;
export type ExperimentResults = Answer<'read_experiment_results'>;
export type VariantResult = ExperimentResults['variants'][number];

export const experimentKeys = {
  all: (campaignId: number) => ['experiments', campaignId] as const,
  results: (campaignId: number, id: number) => ['experiments', campaignId, id, 'results'] as const,
};

export function useExperiments(campaignId: number) {
  return useQuery({
    queryKey: experimentKeys.all(campaignId),
    queryFn: () => must(api.GET('/api/v1/campaigns/{id}/experiments', { params: { path: { id: campaignId } } })),
  });
}

export function useCreateExperiment(campaignId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'create_experiment'>) => must(api.POST('/api/v1/campaigns/{id}/experiments', { params: { path: { id: campaignId } }, body })),
    // A new prompt text is a new (pending) entry of the campaign's prompt history.
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: experimentKeys.all(campaignId) }), client.invalidateQueries({ queryKey: campaignKeys.one(campaignId) })]),
  });
}

export function useExperimentStep(campaignId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, step }: { id: number; step: 'start' | 'stop' }) => step === 'start'
      ? must(api.POST('/api/v1/campaigns/{id}/experiments/{experiment_id}/start', { params: { path: { id: campaignId, experiment_id: id } } }))
      : must(api.POST('/api/v1/campaigns/{id}/experiments/{experiment_id}/stop', { params: { path: { id: campaignId, experiment_id: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: experimentKeys.all(campaignId) }),
  });
}

export function useExperimentResults(campaignId: number, id: number) {
  return useQuery({
    queryKey: experimentKeys.results(campaignId, id),
    queryFn: () => must(api.GET('/api/v1/campaigns/{id}/experiments/{experiment_id}/results', { params: { path: { id: campaignId, experiment_id: id } } })),
    refetchInterval: 30_000,
  });
}

export function usePromote(campaignId: number, id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'promote_experiment_variant'>) => must(api.POST('/api/v1/campaigns/{id}/experiments/{experiment_id}/promote', { params: { path: { id: campaignId, experiment_id: id } }, body })),
    onSuccess: () => Promise.all([
      client.invalidateQueries({ queryKey: experimentKeys.all(campaignId) }),
      client.invalidateQueries({ queryKey: campaignKeys.one(campaignId) }),
    ]),
  });
}

/** The account's assistants to pick from (the first 100). */
export function useAssistantChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['assistants', 'experiment-choices'],
    queryFn: () => must(api.GET('/api/v1/assistants/', { params: { query: { skip: 0, limit: 100 } } })),
    enabled,
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import type { Answer, Body } from '../../api/types';

/** A campaign's test scenarios and their runs (/api/v1/campaigns/{id}/test-scenarios, /test-runs). */
export type Scenario = Answer<'read_test_scenario'>;
export type Run = Answer<'read_test_run'>;
export type Template = Answer<'list_test_scenario_templates'>['items'][number];

const keys = {
  templates: ['test-scenario-templates'] as const,
  scenarios: (campaignId: number) => ['test-scenarios', campaignId] as const,
  runs: (campaignId: number) => ['test-runs', campaignId] as const,
  run: (campaignId: number, runId: number) => ['test-run', campaignId, runId] as const,
};

const open = (r: Run) => r.status === 'queued' || r.status === 'running';

export function useTemplates() {
  return useQuery({ queryKey: keys.templates, queryFn: () => must(api.GET('/api/v1/test-scenario-templates')), staleTime: Infinity });
}

export function useScenarios(campaignId: number) {
  return useQuery({
    queryKey: keys.scenarios(campaignId),
    queryFn: () => must(api.GET('/api/v1/campaigns/{id}/test-scenarios', { params: { path: { id: campaignId } } })),
  });
}

/** The campaign's newest runs; polled while one is still queued or running. */
export function useRuns(campaignId: number) {
  return useQuery({
    queryKey: keys.runs(campaignId),
    queryFn: () => must(api.GET('/api/v1/campaigns/{id}/test-runs', { params: { path: { id: campaignId }, query: { limit: 50 } } })),
    refetchInterval: (query) => (query.state.data?.items.some(open) ? 1000 : false),
  });
}

export function useRun(campaignId: number, runId: number | null) {
  return useQuery({
    queryKey: keys.run(campaignId, runId ?? 0),
    enabled: runId !== null,
    queryFn: () => must(api.GET('/api/v1/campaigns/{id}/test-runs/{run_id}', { params: { path: { id: campaignId, run_id: runId! } } })),
    refetchInterval: (query) => (query.state.data && open(query.state.data) ? 1000 : false),
  });
}

export function useCreateScenario(campaignId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'create_test_scenario'>) => must(api.POST('/api/v1/campaigns/{id}/test-scenarios', { params: { path: { id: campaignId } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.scenarios(campaignId) }),
  });
}

/** Changes a scenario (the fields sent; a run made before no longer counts for the approval gate). */
export function useUpdateScenario(campaignId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: Body<'update_test_scenario'> }) =>
      must(api.PUT('/api/v1/campaigns/{id}/test-scenarios/{scenario_id}', { params: { path: { id: campaignId, scenario_id: id } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.scenarios(campaignId) }),
  });
}

export function useDeleteScenario(campaignId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (scenarioId: number) => must(api.DELETE('/api/v1/campaigns/{id}/test-scenarios/{scenario_id}', { params: { path: { id: campaignId, scenario_id: scenarioId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.scenarios(campaignId) }),
  });
}

export function useRunScenario(campaignId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ scenarioId, promptHistoryId }: { scenarioId: number; promptHistoryId: number | null }) => {
      const { data, error, response } = await api.POST('/api/v1/campaigns/{id}/test-scenarios/{scenario_id}/runs', {
        params: { path: { id: campaignId, scenario_id: scenarioId } }, body: { prompt_history_id: promptHistoryId },
      });
      if (!response.ok) await must(Promise.resolve({ data, error, response }));
      return data as unknown as Run;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: keys.runs(campaignId) }),
  });
}

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import type { Answer, Body } from '../../api/types';

/** Calls: a filtered page (live), one call (live while in progress) and what the webhooks did with it. */

export type CallDetail = Answer<'read_call'>;
export type CallDelivery = Answer<'list_deliveries'>['data'][number] & { webhook: string };

export const callKeys = {
  page: (query: string) => ['calls', query] as const,
  one: (id: number) => ['call', id] as const,
  deliveries: (callId: number) => ['call-deliveries', callId] as const,
};

/**
 * A page of calls for the URL's filters (`query`: their JSON, as the key that changes with them). The
 * filters go to the API as written in the URL (text where the API takes numbers), so a bad value is
 * the API's 422 under its filter rather than dropped here; the generated query type cannot say so.
 * Live: every 2 s while a call on the page is in progress, else every 5 s (new calls appear too).
 */
export function useCallsPage(query: string) {
  return useQuery({
    queryKey: callKeys.page(query),
    queryFn: () => must(api.GET('/api/v1/calls/', { params: { query: JSON.parse(query) as never } })),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some((c) => c.status === 'in progress') ? 2000 : 5000),
  });
}

/** One call, every 2 s while it is in progress (`enabled` false: the address names no call). */
export function useCall(id: number, enabled = true) {
  return useQuery({
    enabled,
    queryKey: callKeys.one(id),
    queryFn: () => must(api.GET('/api/v1/calls/{id}', { params: { path: { id } } })),
    refetchInterval: (q) => (q.state.data?.status === 'in progress' ? 2000 : false),
  });
}

/**
 * For each of the account's webhooks (the first 100), its deliveries of the call, every 2 s while
 * one is pending. A sub-user manages no webhooks: the API's 403 is the query's error.
 */
export function useCallDeliveries(callId: number) {
  return useQuery({
    queryKey: callKeys.deliveries(callId),
    queryFn: async (): Promise<CallDelivery[]> => {
      const hooks = await must(api.GET('/api/v1/integrations/webhooks/', { params: { query: { limit: 100 } } }));
      const per = await Promise.all(hooks.data.map(async (hook) => {
        const page = await must(api.GET('/api/v1/integrations/webhooks/{id}/deliveries', { params: { path: { id: hook.id }, query: { call_id: callId, limit: 20 } } }));
        return page.data.map((d) => ({ ...d, webhook: hook.name ?? hook.url }));
      }));
      return per.flat();
    },
    refetchInterval: (q) => ((q.state.data ?? []).some((d) => d.status === 'pending') ? 2000 : false),
  });
}

/** What an operator does to a call in progress: end it, hand it to a person, or whisper to the AI. */
export type CallControl =
  | { kind: 'end' }
  | { kind: 'transfer'; body: Body<'transfer_call'> }
  | { kind: 'whisper'; body: Body<'whisper_to_call'> };

/** Sends a control; the call as the API answers it replaces the cached one (its end follows when the vendor reports it). */
export function useCallControl(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (control: CallControl) => {
      const path = { params: { path: { id } } };
      if (control.kind === 'end') return must(api.POST('/api/v1/calls/{id}/end', path));
      if (control.kind === 'transfer') return must(api.POST('/api/v1/calls/{id}/transfer', { ...path, body: control.body }));
      return must(api.POST('/api/v1/calls/{id}/whisper', { ...path, body: control.body }));
    },
    onSuccess: (call) => {
      client.setQueryData(callKeys.one(id), call);
      void client.invalidateQueries({ queryKey: ['calls'] });
    },
  });
}

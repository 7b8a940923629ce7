import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import { useLiveEvents, useThrottled } from '../../api/live-stream';
import type { Answer, Body } from '../../api/types';

/** Calls: a filtered page (live), one call (live while in progress) and what the webhooks did with it. */

export type CallDetail = Answer<'read_call'>;
export type CallDelivery = Answer<'list_deliveries'>['data'][number] & { webhook: string };

export const callKeys = {
  /** Every page of calls: refreshed when a call starts or ends. */
  pages: ['calls'] as const,
  page: (query: string) => ['calls', query] as const,
  one: (id: number) => ['call', id] as const,
  deliveries: (callId: number) => ['call-deliveries', callId] as const,
};

/**
 * A page of calls for the URL's filters (`query`: their JSON, as the key that changes with them). The
 * filters go to the API as written in the URL (text where the API takes numbers), so a bad value is
 * the API's 422 under its filter rather than dropped here; the generated query type cannot say so.
 * Live without polling: read again when the stream (of the account, or of `liveCampaignId` when
 * the page shows one campaign's calls) says a call started or ended, at most once a second.
 */
export function useCallsPage(query: string, liveCampaignId?: number) {
  const client = useQueryClient();
  const refresh = useThrottled(() => void client.invalidateQueries({ queryKey: callKeys.pages }), REFRESH_MS);
  useLiveEvents(liveCampaignId, (m) => {
    if (m.type === 'call.started' || m.type === 'call.ended' || m.type === 'resync') refresh();
  });
  return useQuery({
    queryKey: callKeys.page(query),
    queryFn: () => must(api.GET('/api/v1/calls/', { params: { query: JSON.parse(query) as never } })),
    placeholderData: keepPreviousData,
  });
}

// A busy account ends calls many times a second; a list read once a second still looks live.
const REFRESH_MS = 1000;

/**
 * One call (`enabled` false: the address names no call). While it is in progress, read again when
 * the account's stream says it ended (a call names no campaign id to narrow the stream to; its
 * transcript meanwhile: useLiveCalls on the page, over the same stream).
 */
export function useCall(id: number, enabled = true, pollMs?: number) {
  const client = useQueryClient();
  const call = useQuery({
    enabled,
    queryKey: callKeys.one(id),
    queryFn: () => must(api.GET('/api/v1/calls/{id}', { params: { path: { id } } })),
    // pollMs: read again while in progress as well (a page that opens as the call may already be ending).
    refetchInterval: (q) => (pollMs !== undefined && q.state.data?.status === 'in progress' ? pollMs : false),
  });
  const inProgress = call.data?.status === 'in progress';
  useLiveEvents(undefined, (m) => {
    if ((m.type === 'call.ended' && m.call_id === id) || m.type === 'resync') void client.invalidateQueries({ queryKey: callKeys.one(id) });
  }, enabled && inProgress);
  return call;
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

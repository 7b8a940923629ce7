import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import { useLiveEvents, useThrottled } from '../../api/live-stream';
import type { Answer, Body, Query } from '../../api/types';
import { campaignOutcomesKey } from '../analytics/queries';
import { contactKeys } from '../contacts/queries';

/** Campaigns: their lists (pages, choices, searches, titles), one campaign, its summary, and every change of one. */

export type CampaignListItem = Answer<'list_campaigns'>['data'][number];

export const campaignKeys = {
  /** Every list of campaigns (the pages and the contacts' choices): refreshed after any change. */
  lists: ['campaigns'] as const,
  page: (page: number) => ['campaigns', page] as const,
  choices: ['campaigns', 'options'] as const,
  search: (title: string, includeArchived: boolean) => ['campaign-options', title, includeArchived] as const,
  grantable: ['campaign-options'] as const,
  titles: (ids: number[]) => ['campaign-titles', ids] as const,
  one: (id: number) => ['campaign', id] as const,
  summary: (id: number) => ['campaign-summary', id] as const,
  protection: (id: number) => ['campaign-protection', id] as const,
  privacy: (id: number) => ['campaign-privacy', id] as const,
  recording: (id: number) => ['campaign-recording', id] as const,
};

export function useCampaignsPage(page: number, pageSize: number) {
  return useQuery({
    queryKey: campaignKeys.page(page),
    queryFn: () => must(api.GET('/api/v1/campaigns/', { params: { query: { skip: (page - 1) * pageSize, limit: pageSize } } })),
  });
}

/** The caller's campaigns (the first 100) as Select options. */
export function useCampaignOptions() {
  const campaigns = useQuery({
    queryKey: campaignKeys.choices,
    queryFn: () => must(api.GET('/api/v1/campaigns/', { params: { query: { skip: 0, limit: 100 } } })),
    staleTime: 60_000,
  });
  const rows = campaigns.data?.data ?? [];
  return { options: rows.map((c) => ({ value: String(c.id), label: c.title })), error: campaigns.error, isPending: campaigns.isPending };
}

/** Campaigns whose title matches, searched on the server (at most 50). */
export function useCampaignSearch(title: string, includeArchived: boolean) {
  return useQuery({
    queryKey: campaignKeys.search(title, includeArchived),
    queryFn: () => must(api.GET('/api/v1/campaigns/', { params: { query: { limit: 50, ...(title ? { title } : {}), ...(includeArchived ? { include_archived: true } : {}) } } })),
  });
}

/** The campaigns an owner can grant a sub-user (the first 100), as MultiSelect options. */
export function useGrantableCampaigns() {
  const campaigns = useQuery({
    queryKey: campaignKeys.grantable,
    queryFn: () => must(api.GET('/api/v1/campaigns/', { params: { query: { limit: 100 } } })),
  });
  return (campaigns.data?.data ?? []).map((c) => ({ value: String(c.id), label: c.title }));
}

/** Titles of the given campaign ids (one request for all of them), for lists that hold ids. */
export function useCampaignTitles(ids: number[]) {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const titles = useQuery({
    queryKey: campaignKeys.titles(unique),
    queryFn: () => must(api.GET('/api/v1/campaigns/', { params: { query: { id: unique, limit: unique.length, include_archived: true } } })),
    enabled: unique.length > 0,
  });
  const map = new Map((titles.data?.data ?? []).map((c) => [c.id, c.title] as const));
  return (id: number) => map.get(id) ?? `Campaign ${id}`;
}

export function useCampaign(id: number, enabled: boolean) {
  return useQuery({
    queryKey: campaignKeys.one(id),
    queryFn: () => must(api.GET('/api/v1/campaigns/{id}', { params: { path: { id } } })),
    enabled,
  });
}

/** The campaign's progress; kept current by useCampaignFollowLive on the pages that show it. */
export function useCampaignSummary(id: number) {
  return useQuery({
    queryKey: campaignKeys.summary(id),
    queryFn: () => must(api.GET('/api/v1/campaigns/{id}/summary', { params: { path: { id } } })),
  });
}

// Figures read again at most this often, however many calls end meanwhile.
const FIGURES_REFRESH_MS = 1000;

/**
 * Keeps the figures of one campaign (or of every campaign: no id) current from the live stream
 * rather than by polling: a call that starts or ends changes its contacts and progress, one that
 * ends its outcomes; a pause, a resume or a reached limit changes the campaign itself.
 */
export function useCampaignFollowLive(campaignId?: number) {
  const client = useQueryClient();
  const invalidate = (queryKey: readonly unknown[]) => void client.invalidateQueries({ queryKey });
  const refreshFigures = useThrottled(() => {
    invalidate(campaignId === undefined ? ['campaign-summary'] : campaignKeys.summary(campaignId));
    invalidate(campaignOutcomesKey(campaignId));
    invalidate(contactKeys.lists);
  }, FIGURES_REFRESH_MS);
  const refreshCampaign = useThrottled(() => {
    invalidate(campaignId === undefined ? ['campaign'] : campaignKeys.one(campaignId));
    invalidate(campaignKeys.lists);
  }, FIGURES_REFRESH_MS);
  useLiveEvents(campaignId, (m) => {
    if (m.type === 'call.started' || m.type === 'call.ended') refreshFigures();
    else if (m.type !== 'call.ringing' && m.type !== 'call.answered' && m.type !== 'call.turn') {
      // A campaign's own event, or `resync` (anything may have changed).
      refreshCampaign();
      refreshFigures();
    }
  });
}

/** After a change of one campaign: the campaign, its progress and every list show it. */
function useRefreshCampaign() {
  const client = useQueryClient();
  return (id: number, saved?: Answer<'read_campaign'>) => {
    if (saved) client.setQueryData(campaignKeys.one(id), saved);
    void client.invalidateQueries({ queryKey: campaignKeys.one(id) });
    void client.invalidateQueries({ queryKey: campaignKeys.summary(id) });
    void client.invalidateQueries({ queryKey: campaignKeys.lists });
  };
}

/** Pauses, resumes, archives or unarchives a campaign. */
export function useChangeCampaignState(id: number) {
  const refresh = useRefreshCampaign();
  return useMutation({
    mutationFn: (body: Pick<Body<'update_campaign'>, 'is_paused' | 'is_archive'>) => must(api.PUT('/api/v1/campaigns/{id}', { params: { path: { id } }, body })),
    onSuccess: (saved) => refresh(id, saved),
  });
}

/** A new campaign (no id) or the changed fields of one. */
export type CampaignSave = { id: number; body: Body<'update_campaign'> } | { id?: undefined; body: Body<'create_campaign'> };

export function useSaveCampaign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: CampaignSave) => (save.id !== undefined
      ? must(api.PUT('/api/v1/campaigns/{id}', { params: { path: { id: save.id } }, body: save.body }))
      : must(api.POST('/api/v1/campaigns/', { body: save.body }))),
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: campaignKeys.lists });
      client.setQueryData(campaignKeys.one(saved.id), saved);
      void client.invalidateQueries({ queryKey: campaignKeys.summary(saved.id) });
    },
  });
}

/** Queues the campaign's new contacts for a call. */
export function useQueueNewContacts(id: number) {
  const refresh = useRefreshCampaign();
  return useMutation({
    mutationFn: () => must(api.POST('/api/v1/campaigns/enqueue_calls/{campaign_id}', { params: { path: { campaign_id: id } } })),
    onSettled: () => refresh(id),
  });
}

/** Queues at most `limit` of the campaign's contacts with one status. */
export function useQueueByStatus(id: number) {
  const refresh = useRefreshCampaign();
  return useMutation({
    mutationFn: (query: Query<'enqueue_campaign_contacts_by_status'>) => must(api.POST('/api/v1/contacts/enqueue_calls/{campaign_id}', { params: { path: { campaign_id: id }, query } })),
    onSettled: () => refresh(id),
  });
}

/** The owner's decision on a pending prompt version. */
export function useDecidePrompt(campaignId: number, historyId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ decision, comment }: { decision: 'approve' | 'reject'; comment: string | null }) => {
      const params = { path: { id: campaignId, history_id: historyId } };
      const body = { comment };
      return decision === 'approve'
        ? must(api.POST('/api/v1/campaigns/{id}/prompt-history/{history_id}/approve', { params, body }))
        : must(api.POST('/api/v1/campaigns/{id}/prompt-history/{history_id}/reject', { params, body }));
    },
    onSettled: () => client.invalidateQueries({ queryKey: campaignKeys.one(campaignId) }),
  });
}

/** The campaign's circuit-breaker settings (GET /campaigns/{id}/protection, their own endpoint). */
export function useCampaignProtection(id: number) {
  return useQuery({
    queryKey: campaignKeys.protection(id),
    queryFn: () => must(api.GET('/api/v1/campaigns/{id}/protection', { params: { path: { id } } })),
  });
}

export function useSaveCampaignProtection(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'update_campaign_protection'>) => must(api.PUT('/api/v1/campaigns/{id}/protection', { params: { path: { id } }, body })),
    onSuccess: (saved) => client.setQueryData(campaignKeys.protection(id), saved),
  });
}

/** The campaign's own retention of personal data, beside the account's (GET /campaigns/{id}/privacy). */
export function useCampaignPrivacy(id: number) {
  return useQuery({
    queryKey: campaignKeys.privacy(id),
    queryFn: () => must(api.GET('/api/v1/campaigns/{id}/privacy', { params: { path: { id } } })),
  });
}

export function useSaveCampaignPrivacy(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'update_campaign_privacy'>) => must(api.PUT('/api/v1/campaigns/{id}/privacy', { params: { path: { id } }, body })),
    onSuccess: (saved) => client.setQueryData(campaignKeys.privacy(id), saved),
  });
}

export function useCampaignRecording(id: number) {
  return useQuery({
    queryKey: campaignKeys.recording(id),
    queryFn: () => must(api.GET('/api/v1/campaigns/{id}/recording', { params: { path: { id } } })),
  });
}

export function useSaveCampaignRecording(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'update_campaign_recording'>) => must(api.PUT('/api/v1/campaigns/{id}/recording', { params: { path: { id } }, body })),
    onSuccess: (saved) => client.setQueryData(campaignKeys.recording(id), saved),
  });
}

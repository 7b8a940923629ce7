import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import type { Answer, Body } from '../../api/types';

/** SIP trunks (owners only) and the trunk a campaign's calls go through (issue 29). */
export type SipTrunk = Answer<'read_sip_trunk'>;

const keys = { lists: ['sip-trunks'] as const, campaign: (id: number) => ['campaign-sip-trunk', id] as const };

/** The account's trunks: the API's largest page (100), enough for a picker and the list. */
export function useSipTrunks(enabled = true) {
  return useQuery({
    queryKey: keys.lists,
    queryFn: () => must(api.GET('/api/v1/sip-trunks/', { params: { query: { skip: 0, limit: 100 } } })),
    enabled,
    retry: false,
  });
}

export type SipTrunkSave = { id: number; body: Body<'change_sip_trunk'> } | { id?: undefined; body: Body<'create_sip_trunk'> };

export function useSaveSipTrunk() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: SipTrunkSave) => (save.id !== undefined
      ? must(api.PUT('/api/v1/sip-trunks/{id}', { params: { path: { id: save.id } }, body: save.body }))
      : must(api.POST('/api/v1/sip-trunks/', { body: save.body }))),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.lists }),
  });
}

/** Deletes a trunk; the API's 409 (campaigns still use it) is the mutation's error. */
export function useDeleteSipTrunk() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => must(api.DELETE('/api/v1/sip-trunks/{id}', { params: { path: { id } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.lists }),
  });
}

export function useCampaignSipTrunk(campaignId: number | null) {
  return useQuery({
    queryKey: keys.campaign(campaignId ?? 0),
    queryFn: () => must(api.GET('/api/v1/campaigns/{id}/sip-trunk', { params: { path: { id: campaignId! } } })),
    enabled: campaignId !== null,
    retry: false,
  });
}

export function useSetCampaignSipTrunk(campaignId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sipTrunkId: number | null) => must(api.PUT('/api/v1/campaigns/{id}/sip-trunk', { params: { path: { id: campaignId } }, body: { sip_trunk_id: sipTrunkId } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.campaign(campaignId) });
      void client.invalidateQueries({ queryKey: keys.lists });
    },
  });
}

export type SipRouteTest = Answer<'test_campaign_sip_route'>;

/** One test call through the campaign's SIP route (owners only); its end is read with useCall. */
export function useTestSipRoute(campaignId: number) {
  return useMutation({
    mutationFn: (phoneNumber: string) => must(api.POST('/api/v1/campaigns/{id}/sip-route/test', { params: { path: { id: campaignId } }, body: { phone_number: phoneNumber } })),
  });
}

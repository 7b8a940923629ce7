import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import type { Answer, Body } from '../../api/types';

/** The profile: the signed-in owner, its API keys, and its sub-users with the campaigns each may see. */

export type ApiKey = Answer<'list_api_keys'>[number];
export type SubUser = Answer<'list_sub_users'>['data'][number];

export const profileKeys = {
  me: ['me'] as const,
  apiKeys: ['api-keys'] as const,
  subUsers: ['sub-users'] as const,
  grants: (subUserId: number) => ['sub-user-campaigns', subUserId] as const,
  preferences: ['display-preferences'] as const,
};

/** The owner's own account (a sub-user has none to read: `enabled` false). */
export function useMe(enabled: boolean) {
  return useQuery({ queryKey: profileKeys.me, queryFn: () => must(api.GET('/api/v1/users/me')), enabled });
}

export function useApiKeys() {
  return useQuery({ queryKey: profileKeys.apiKeys, queryFn: () => must(api.GET('/api/v1/api-keys/')) });
}

/** A new key; the answer carries the key itself, shown once. */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'generate_api_key'>) => must(api.POST('/api/v1/api-keys/', { body })),
    onSuccess: () => void client.invalidateQueries({ queryKey: profileKeys.apiKeys }),
  });
}

export function useDeleteApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => must(api.DELETE('/api/v1/api-keys/{id}', { params: { path: { id } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: profileKeys.apiKeys }),
  });
}

/** The owner's sub-users (the first 100; owners only: the API answers 403 to a sub-user). */
export function useSubUsers() {
  return useQuery({ queryKey: profileKeys.subUsers, queryFn: () => must(api.GET('/api/v1/sub-users/', { params: { query: { limit: 100 } } })) });
}

export function useCreateSubUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'create_sub_user'>) => must(api.POST('/api/v1/sub-users/', { body })),
    onSuccess: () => void client.invalidateQueries({ queryKey: profileKeys.subUsers }),
  });
}

/** The campaigns granted to a sub-user. */
export function useGrants(subUserId: number) {
  return useQuery({
    queryKey: profileKeys.grants(subUserId),
    queryFn: () => must(api.GET('/api/v1/sub-users/{id}/campaigns', { params: { path: { id: subUserId } } })),
  });
}

/** Moves a sub-user's grants from `granted` to `next`: one grant or one withdrawal per campaign that changed. */
export function useChangeGrants(subUserId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ granted, next }: { granted: number[]; next: number[] }) => {
      const path = (campaignId: number) => ({ params: { path: { id: subUserId, campaign_id: campaignId } } });
      for (const id of next.filter((v) => !granted.includes(v))) await must(api.POST('/api/v1/sub-users/{id}/campaigns/{campaign_id}', path(id)));
      for (const id of granted.filter((v) => !next.includes(v))) await must(api.DELETE('/api/v1/sub-users/{id}/campaigns/{campaign_id}', path(id)));
    },
    onSettled: () => client.invalidateQueries({ queryKey: profileKeys.grants(subUserId) }),
  });
}

export type DisplayPreferences = Answer<'read_display_preferences'>;

/**
 * The account's display zone and currency (a sub-user reads its owner's). Every page formats with
 * them (ui/src/format/useFormat.ts); they change only through the form below, which refreshes them.
 */
export function usePreferences() {
  return useQuery({
    queryKey: profileKeys.preferences,
    queryFn: () => must(api.GET('/api/v1/users/me/preferences')),
    staleTime: Infinity,
  });
}

export function useUpdatePreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'update_display_preferences'>) => must(api.PUT('/api/v1/users/me/preferences', { body })),
    onSuccess: (saved) => client.setQueryData(profileKeys.preferences, saved),
  });
}

/**
 * The signed-in login's own password. The service ends every other session and token and gives
 * this browser a fresh session cookie, so nothing read here needs reading again.
 */
export function useChangePassword() {
  return useMutation({ mutationFn: (body: Body<'change_password'>) => must(api.PUT('/api/v1/users/me/password', { body })) });
}

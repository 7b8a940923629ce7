import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import type { Body } from '../../api/types';

/** Voice connections (owners only: a sub-user's read is the API's 403, shown by the caller). */

export const voiceConnectionKeys = {
  /** Every page of connections, the assistants' choices included: refreshed after any change. */
  lists: ['voice-connections'] as const,
  page: (skip: number, limit: number) => ['voice-connections', skip, limit] as const,
};

/** A page of the account's voice connections. */
export function useVoiceConnectionsPage(skip: number, limit: number, enabled = true) {
  return useQuery({
    queryKey: voiceConnectionKeys.page(skip, limit),
    queryFn: () => must(api.GET('/api/v1/voice-connections/', { params: { query: { skip, limit } } })),
    enabled,
    retry: false,
  });
}

/**
 * The connections offered when choosing one for an assistant: the API's largest page (100).
 * An account with more shows the first 100 and says so (see ConnectionSelect).
 */
export const CHOICE_LIMIT = 100;
export const useConnectionChoices = (enabled: boolean) => useVoiceConnectionsPage(0, CHOICE_LIMIT, enabled);

/** A new connection (no id) or a change of one. */
export type ConnectionSave = { id: number; body: Body<'change_voice_connection'> } | { id?: undefined; body: Body<'create_voice_connection'> };

export function useSaveVoiceConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: ConnectionSave) => (save.id !== undefined
      ? must(api.PUT('/api/v1/voice-connections/{id}', { params: { path: { id: save.id } }, body: save.body }))
      : must(api.POST('/api/v1/voice-connections/', { body: save.body }))),
    onSuccess: () => void client.invalidateQueries({ queryKey: voiceConnectionKeys.lists }),
  });
}

/** Deletes a connection; the API's 409 (assistants still name it) is the mutation's error. */
export function useDeleteVoiceConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => must(api.DELETE('/api/v1/voice-connections/{id}', { params: { path: { id } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: voiceConnectionKeys.lists }),
  });
}

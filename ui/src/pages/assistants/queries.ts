import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import type { Body } from '../../api/types';

/** Assistants: a page of them, the choices for a campaign, and every change of one. */

export const assistantKeys = {
  /** Every list of assistants (pages and choices): refreshed after any change. */
  lists: ['assistants'] as const,
  page: (page: number) => ['assistants', page] as const,
  choices: ['assistants', 'options'] as const,
};

export function useAssistantsPage(page: number, pageSize: number) {
  return useQuery({
    queryKey: assistantKeys.page(page),
    queryFn: () => must(api.GET('/api/v1/assistants/', { params: { query: { skip: (page - 1) * pageSize, limit: pageSize } } })),
  });
}

/** The account's assistants (first 100) as options; a sub-user may not list them all, which only empties the list. */
export function useAssistantOptions() {
  const q = useQuery({
    queryKey: assistantKeys.choices,
    queryFn: () => must(api.GET('/api/v1/assistants/', { params: { query: { skip: 0, limit: 100 } } })),
    staleTime: 60_000,
  });
  return { options: (q.data?.data ?? []).map((a) => ({ value: String(a.id), label: `${a.name} (${a.provider})` })), error: q.error };
}

/** A new assistant (no id) or a change of one: the same whole body either way. */
export function useSaveAssistant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: Body<'create_assistant'> & Body<'change_assistant'> }) => (id !== undefined
      ? must(api.PUT('/api/v1/assistants/{id}', { params: { path: { id } }, body }))
      : must(api.POST('/api/v1/assistants/', { body }))),
    onSuccess: () => void client.invalidateQueries({ queryKey: assistantKeys.lists }),
  });
}

/** Deletes an assistant; the API's 409 (campaigns still use it) is the mutation's error. */
export function useDeleteAssistant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => must(api.DELETE('/api/v1/assistants/{id}', { params: { path: { id } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: assistantKeys.lists }),
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import type { Answer, Body } from '../../api/types';

/** Who is signed in, as GET /api/v1/session answers it. */
export type SessionUser = Answer<'read_session'>;

export const sessionKeys = { session: ['session'] as const };

/** Who is signed in (the session cookie), or null. */
export function useSession() {
  return useQuery({
    queryKey: sessionKeys.session,
    queryFn: async (): Promise<SessionUser | null> => {
      const { data, response } = await api.GET('/api/v1/session');
      if (response.status === 401) return null;
      if (!response.ok || !data) throw new Error(`The service answered ${response.status}`);
      return data;
    },
  });
}

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'sign_in'>) => must(api.POST('/api/v1/session', { body })),
    onSuccess: (user) => client.setQueryData(sessionKeys.session, user),
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => must(api.DELETE('/api/v1/session')),
    onSuccess: () => {
      // The session query keeps its observers (the app shows the sign-in form through them);
      // everything read as the signed-in person is dropped.
      client.setQueryData(sessionKeys.session, null);
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKeys.session[0] });
    },
  });
}

export const setupKeys = { setup: ['setup'] as const };

/** Whether the service still needs its owner account (first run): the sign-in page then offers to create it. */
export function useSetup() {
  return useQuery({ queryKey: setupKeys.setup, queryFn: () => must(api.GET('/api/v1/setup')) });
}

/** Creates the first owner; the answer is the new session, so the dashboard opens signed in. */
export function useCreateOwner() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'create_owner'>) => must(api.POST('/api/v1/setup', { body })),
    onSuccess: (user) => {
      client.setQueryData(setupKeys.setup, { needs_owner: false });
      client.setQueryData(sessionKeys.session, user);
    },
    // 409: someone else created it first; the page then shows the sign-in form.
    onError: () => void client.invalidateQueries({ queryKey: setupKeys.setup }),
  });
}

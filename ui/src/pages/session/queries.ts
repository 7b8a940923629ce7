import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';

export interface SessionUser {
  kind: 'user' | 'sub_user';
  id: number;
  email?: string | null;
  username?: string | null;
  owner_id: number;
  is_superuser?: boolean;
}

/** Who is signed in (the session cookie), or null. */
export function useSession() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      const { data, response } = await api.GET('/api/v1/session');
      if (response.status === 401) return null;
      if (!response.ok) throw new Error(`The service answered ${response.status}`);
      return data as SessionUser;
    },
  });
}

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { username: string; password: string }) => must(api.POST('/api/v1/session', { body })),
    onSuccess: (user) => client.setQueryData(['session'], user),
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => must(api.DELETE('/api/v1/session')),
    onSuccess: () => {
      // The session query keeps its observers (the app shows the sign-in form through them);
      // everything read as the signed-in person is dropped.
      client.setQueryData(['session'], null);
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
    },
  });
}

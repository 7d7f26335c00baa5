import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const otherSessionsKey = (userId: string) => ['other-sessions', userId] as const;

/**
 * How many other browsers or devices the account is signed in on, from Better Auth's
 * `GET /api/auth/list-sessions` (every live session, this one among them).
 */
export function useOtherSessions(userId: string) {
  return useQuery({
    queryKey: otherSessionsKey(userId),
    queryFn: async ({ signal }) =>
      Math.max(
        0,
        (await api<unknown[]>('/auth/list-sessions', { signal, anonymous: true })).length - 1,
      ),
  });
}

/**
 * Better Auth's `POST /api/auth/revoke-other-sessions`: every session but this one ends, and
 * with it the access tokens issued to them (each call reads its session).
 */
export function useSignOutElsewhere(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api('/auth/revoke-other-sessions', {
        method: 'POST',
        body: {},
        anonymous: true,
        sessionEndsOn: [401],
      }),
    onSuccess: () => queryClient.setQueryData(otherSessionsKey(userId), 0),
  });
}

import { type AccountRemoval, accountRemovedSchema } from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { sessionQuery } from '../../../lib/auth/session';

/** Better Auth's `POST /api/auth/update-user`: the account's name; the session is read again. */
export function useChangeName() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      api('/auth/update-user', { method: 'POST', body: { name }, anonymous: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey }),
  });
}

/** Better Auth's `POST /api/auth/change-password`, with the current password. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (passwords: { currentPassword: string; newPassword: string }) =>
      api('/auth/change-password', {
        method: 'POST',
        body: { ...passwords, revokeOtherSessions: false },
        anonymous: true,
      }),
  });
}

/** `DELETE /api/account`: removes the signed-in patient's own account. */
export function useRemoveAccount() {
  return useMutation({
    mutationFn: async (removal: AccountRemoval) =>
      decodeAnswer(
        accountRemovedSchema,
        await api<unknown>('/account', { method: 'DELETE', body: removal }),
      ),
  });
}

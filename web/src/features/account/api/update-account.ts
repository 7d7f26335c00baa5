import { type AccountRemoval, accountRemovedSchema } from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { sessionQuery } from '../../../lib/auth/session';

/** What the patient changes on their profile: the name, the phone or the age (null clears them). */
export type ProfileChange = {
  name?: string;
  phone?: string | null;
  age?: number | null;
};

/**
 * Better Auth's `POST /api/auth/update-user`: the account's name, phone or age (additional fields
 * of the account, see the server's auth.ts); the session is read again.
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ProfileChange) =>
      // On the session cookie, not the token: its 401 means the session has ended all the same.
      api('/auth/update-user', {
        method: 'POST',
        body: change,
        anonymous: true,
        sessionEndsOn: [401],
      }),
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
        sessionEndsOn: [401],
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

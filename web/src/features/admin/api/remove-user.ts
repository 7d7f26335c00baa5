import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { adminKeys } from './keys';

/**
 * `DELETE /api/user/:email` (admin): removes the account and ends its sessions; the clinic keeps
 * the bookings. Removing oneself or the last admin answers 409 with the reason.
 */
export const removeUser = (email: string) =>
  api<{ deletedCount: number }>(`/user/${encodeURIComponent(email)}`, { method: 'DELETE' });

/** Removes a user; the users list is read again whatever the answer. */
export function useRemoveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeUser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.users }),
  });
}

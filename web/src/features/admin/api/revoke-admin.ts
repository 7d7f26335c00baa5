import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { adminKeys } from './keys';

/**
 * `DELETE /api/user/admin/:email` (admin): `modifiedCount` is 1 when the role was taken, 0 when
 * the user was no admin; one's own role, the last admin, or an admin by the server's setting is
 * refused with 409 and the reason.
 */
export const revokeAdmin = (email: string) =>
  api<{ modifiedCount: number }>(`/user/admin/${encodeURIComponent(email)}`, {
    method: 'DELETE',
  });

/** Takes the admin role from a user; the users list is read again whatever the answer. */
export function useRevokeAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeAdmin,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.users }),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { adminKeys } from './keys';

/**
 * `PUT /api/user/admin/:email` (admin): `modifiedCount` is 1 when the user became an admin, 0
 * when they were one already; a non-admin is refused with 403.
 */
export const makeAdmin = (email: string) =>
  api<{ modifiedCount: number }>(`/user/admin/${encodeURIComponent(email)}`, { method: 'PUT' });

/** Makes a user an admin; the users list is read again whatever the answer. */
export function useMakeAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: makeAdmin,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.users }),
  });
}

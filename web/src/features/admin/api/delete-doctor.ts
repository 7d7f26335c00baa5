import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** `DELETE /api/doctor/:email` (admin): `deletedCount` is 1 when the doctor (and their photo) went. */
export const deleteDoctor = (email: string) =>
  api<{ deletedCount: number }>(`/doctor/${encodeURIComponent(email)}`, { method: 'DELETE' });

/** Deletes a doctor; the doctors list is read again whatever the answer. */
export function useDeleteDoctor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDoctor,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.doctors }),
  });
}

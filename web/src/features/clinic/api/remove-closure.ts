import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateClinicCalendar } from './invalidate';

/** `DELETE /api/closures/{id}` (administrators): the clinic opens on the closure's days again. */
export async function removeClosure(id: string): Promise<void> {
  await api<unknown>(`/closures/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Removes a closure; the calendar, the closures and the availability are read again after. */
export function useRemoveClosure() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeClosure,
    onSettled: () => invalidateClinicCalendar(queryClient),
  });
}

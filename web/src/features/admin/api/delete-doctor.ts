import { doctorBookedSchema, type HeldSlot } from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';
import { adminKeys } from './keys';

/**
 * `DELETE /api/doctor/:email` (admin): `deletedCount` is 1 when the doctor (and their photo) went.
 * A doctor who still holds upcoming bookings stays: 409 listing them (see `upcomingBookingsOf`).
 */
export const deleteDoctor = (email: string) =>
  api<{ deletedCount: number }>(`/doctor/${encodeURIComponent(email)}`, { method: 'DELETE' });

/** The upcoming bookings a refused deletion listed (date 'YYYY-MM-DD', slot, patient), or null. */
export function upcomingBookingsOf(error: unknown): HeldSlot[] | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = doctorBookedSchema.safeParse(error.body);
  return body.success ? body.data.bookings : null;
}

/** Deletes a doctor; the doctors list is read again whatever the answer. */
export function useDeleteDoctor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDoctor,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.doctors }),
  });
}

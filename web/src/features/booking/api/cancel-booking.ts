import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bookingKeys } from '../../../api/booking-keys';
import { api } from '../../../lib/api-client';

/**
 * `DELETE /api/booking/:id`: cancels an unpaid booking that has not started; it stays on record
 * and frees its slot. A 401 or 403 means the session has ended, as for the list it is on.
 */
export const cancelBooking = (id: string) =>
  api<{ deletedCount: number }>(`/booking/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    sessionEndsOn: [401, 403],
  });

/**
 * Cancels a booking. Whatever the answer, the patient's bookings are read again (settling once
 * they are), and the freed slot shows on the booking page.
 */
export function useCancelBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelBooking,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: bookingKeys.available });
      return queryClient.invalidateQueries({ queryKey: bookingKeys.bookings });
    },
  });
}

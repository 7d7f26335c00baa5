import { type Booking, bookingSchema } from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, decodeAnswer } from '../lib/api-client';
import { bookingKeys } from './booking-keys';
import { scheduleKeys } from './schedule-keys';

/**
 * `POST /api/booking/{id}/cancel` (administrators): the clinic cancels a booking with a reason
 * for its patient; a paid one is refunded. A refund the payment provider refuses is a 409 saying
 * why (the booking stays), a provider out of reach a 502.
 */
export async function cancelByClinic(input: { id: string; reason: string }): Promise<Booking> {
  const answer = await api<{ booking: unknown }>(
    `/booking/${encodeURIComponent(input.id)}/cancel`,
    {
      method: 'POST',
      body: { reason: input.reason },
    },
  );
  return decodeAnswer(bookingSchema, answer.booking);
}

/**
 * Cancels a booking for the clinic, from the schedule or for a closure's bookings. Whatever the
 * answer, the schedule is read again, and the freed slot shows on the booking page and in the
 * patient's appointments.
 */
export function useCancelByClinic() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelByClinic,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: bookingKeys.available });
      void queryClient.invalidateQueries({ queryKey: bookingKeys.bookings });
      return queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
    },
  });
}

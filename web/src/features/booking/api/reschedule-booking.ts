import {
  type Booking,
  bookingCreatedSchema,
  type IsoDate,
  mediumDateField,
  type RescheduleRequest,
} from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bookingKeys } from '../../../api/booking-keys';
import { api, decodeAnswer } from '../../../lib/api-client';

/** A move as the app holds it: the booking's id, and its new day (an IsoDate) and slot. */
export interface BookingMove {
  id: string;
  date: IsoDate;
  slot: string;
}

/**
 * `POST /api/booking/{id}/reschedule`: moves one of the patient's own upcoming bookings to
 * another day or slot of the same treatment, in place (the same booking, its payment kept). The
 * day is encoded to the spec's medium format; answers the moved booking. A 401 means the session
 * has ended; any other refusal (the slot just taken, the minimum notice, …) is an ApiError
 * saying why.
 */
export async function rescheduleBooking({ id, date, slot }: BookingMove): Promise<Booking> {
  const body: RescheduleRequest = { date: mediumDateField.encode(date), slot };
  const answer = await api<unknown>(`/booking/${encodeURIComponent(id)}/reschedule`, {
    method: 'POST',
    body: { ...body },
    sessionEndsOn: [401],
  });
  return decodeAnswer(bookingCreatedSchema, answer).booking;
}

/**
 * Moves a booking. Whatever the answer, the patient's bookings and every day's free slots are
 * read again: the old slot is free after a move, and a refused one may have been taken.
 */
export function useRescheduleBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rescheduleBooking,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: bookingKeys.available });
      return queryClient.invalidateQueries({ queryKey: bookingKeys.bookings });
    },
  });
}

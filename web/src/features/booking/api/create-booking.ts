import {
  type Booking,
  type BookingRequest,
  bookingCreatedSchema,
  bookingRefusedSchema,
  type IsoDate,
  mediumDateField,
} from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { bookingKeys } from '../../../api/booking-keys';
import { ApiError, api, decodeAnswer } from '../../../lib/api-client';
import { sessionQuery } from '../../../lib/auth/session';

/** A booking request as the app holds it: the day as an IsoDate. */
export type NewBooking = Omit<BookingRequest, 'date'> & { date: IsoDate };

export type BookingRefusal = z.output<typeof bookingRefusedSchema>;

/**
 * The server refused the booking (409): the patient already holds this treatment that day
 * ('patient', with that booking), holds another at an overlapping time ('overlap'), or someone
 * took the slot first ('slot'). The refusal's dates are decoded like any answer's.
 */
export class BookingRefusedError extends ApiError {
  constructor(
    readonly refusal: BookingRefusal,
    body: unknown,
  ) {
    super(409, refusal.message, body);
    this.name = 'BookingRefusedError';
  }
}

/** `POST /api/booking`: the day is encoded to the spec's medium format; answers the stored booking. */
export async function createBooking(booking: NewBooking): Promise<Booking> {
  const request: BookingRequest = { ...booking, date: mediumDateField.encode(booking.date) };
  try {
    const answer = await api<unknown>('/booking', { method: 'POST', body: { ...request } });
    return decodeAnswer(bookingCreatedSchema, answer).booking;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      const refusal = bookingRefusedSchema.safeDecode(
        error.body as z.input<typeof bookingRefusedSchema>,
      );
      if (refusal.success) throw new BookingRefusedError(refusal.data, error.body);
    }
    throw error;
  }
}

/**
 * Books a slot. The patient's bookings are refetched after a booking, and so is the session, whose
 * user then holds the phone and age a first booking saved to the profile (the next booking form
 * starts with them); the day's free slots after every attempt, successful or not (spec section 4,
 * Booking modal).
 */
export function useCreateBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBooking,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: bookingKeys.bookings });
      void queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: bookingKeys.available }),
  });
}

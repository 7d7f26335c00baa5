import type {
  AvailableTreatment,
  Booking,
  BookingRequest,
  BookingResult,
} from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { bookingKeys } from '../../../api/booking-keys';
import { api } from '../../../lib/api-client';

// The booking calls (spec section 7). Availability is public and cached per date; a patient's
// own bookings need the bearer token.

/** `GET /api/available?date={medium date}`: the treatments with their free slots that day. */
export const availabilityQuery = (date: string) =>
  queryOptions({
    queryKey: bookingKeys.availableOn(date),
    queryFn: ({ signal }) =>
      api<AvailableTreatment[]>(`/available?date=${encodeURIComponent(date)}`, {
        signal,
        anonymous: true,
      }),
    staleTime: 30_000,
  });

/** `GET /api/booking?patientMail={email}`: the signed-in patient's own bookings, by date. */
export const myBookingsQuery = (email: string) =>
  queryOptions({
    queryKey: bookingKeys.bookingsOf(email),
    queryFn: ({ signal }) =>
      api<Booking[]>(`/booking?patientMail=${encodeURIComponent(email)}`, { signal }),
  });

/** `POST /api/booking`. Resolves with the stored booking; a 409 throws an ApiError. */
export const createBooking = (request: BookingRequest) =>
  api<Extract<BookingResult, { success: true }>>('/booking', {
    method: 'POST',
    body: { ...request },
  });

/** `DELETE /api/booking/:id`: cancels an unpaid booking of today or later. */
export const cancelBooking = (id: string) =>
  api<{ deletedCount: number }>(`/booking/${encodeURIComponent(id)}`, { method: 'DELETE' });

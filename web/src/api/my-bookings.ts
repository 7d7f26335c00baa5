import { type Booking, bookingSchema, type IsoDate } from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api, decodeAnswer } from '../lib/api-client';
import { bookingKeys } from './booking-keys';

/**
 * `GET /api/booking?patientMail={email}`: the signed-in patient's own bookings, by date, each
 * date decoded to an IsoDate. A 401 or 403 means the session has ended (spec section 4).
 */
export async function getMyBookings(email: string, signal?: AbortSignal): Promise<Booking[]> {
  const answer = await api<unknown>(`/booking?patientMail=${encodeURIComponent(email)}`, {
    signal,
    sessionEndsOn: [401, 403],
  });
  return decodeAnswer(bookingSchema.array(), answer);
}

export const myBookingsQuery = (email: string) =>
  queryOptions({
    queryKey: bookingKeys.bookingsOf(email),
    queryFn: ({ signal }) => getMyBookings(email, signal),
  });

/** A booking still to come: booked or confirmed, on `today` (the clinic's) or a later day. */
export const isUpcoming = (booking: Booking, today: IsoDate) =>
  (booking.status === 'booked' || booking.status === 'confirmed') && booking.date >= today;

import { type Booking, bookingSchema } from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { retryUnlessRefused } from '../../../lib/query-client';
import { paymentKeys } from './keys';

/**
 * `GET /api/booking/{id}`: one of the patient's bookings, its date decoded to an IsoDate (404
 * unknown, 403 someone else's: the page says which).
 */
export async function getBooking(id: string, signal?: AbortSignal): Promise<Booking> {
  const answer = await api<unknown>(`/booking/${encodeURIComponent(id)}`, { signal });
  return decodeAnswer(bookingSchema, answer);
}

export const bookingQuery = (id: string) =>
  queryOptions({
    queryKey: paymentKeys.booking(id),
    queryFn: ({ signal }) => getBooking(id, signal),
    retry: retryUnlessRefused,
  });

import { type ClosureWithBookings, closureWithBookingsSchema } from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { clinicKeys } from './keys';

/**
 * `GET /api/closures` (administrators): the closures not over yet, by first day, each with the
 * live bookings on its days.
 */
export async function getClosures(signal?: AbortSignal): Promise<ClosureWithBookings[]> {
  const answer = await api<unknown>('/closures', { signal });
  return decodeAnswer(closureWithBookingsSchema.array(), answer);
}

export const closuresQuery = queryOptions({
  queryKey: clinicKeys.closures,
  queryFn: ({ signal }) => getClosures(signal),
});

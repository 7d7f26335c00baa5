import type { AvailableTreatment, IsoDate } from '@doctors-portal/contract';
import { queryOptions, skipToken } from '@tanstack/react-query';
import { api, decodeAnswer } from '../lib/api-client';
import { bookingKeys } from './booking-keys';

/**
 * `GET /api/available?date={medium date}` (public): the treatments with their free slots on the
 * day. The day is encoded to the spec's medium format for the request.
 */
export async function getAvailability(
  date: IsoDate,
  signal?: AbortSignal,
): Promise<AvailableTreatment[]> {
  const { availableTreatmentSchema, mediumDateField } = await import('./availability-schemas');
  const answer = await api<unknown>(
    `/available?date=${encodeURIComponent(mediumDateField.encode(date))}`,
    { signal, anonymous: true },
  );
  return decodeAnswer(availableTreatmentSchema.array(), answer);
}

/** The day's availability, cached per day; nothing is asked before the day is known. */
export const availabilityQuery = (date: IsoDate | null) =>
  queryOptions({
    queryKey: bookingKeys.availableOn(date),
    queryFn: date ? ({ signal }) => getAvailability(date, signal) : skipToken,
    staleTime: 30_000,
  });

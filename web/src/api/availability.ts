import type { AvailableMonth, AvailableTreatment, IsoDate } from '@doctors-portal/contract';
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

/** `GET /api/available/month?month=YYYY-MM` (public): whether each day of it has anything free. */
async function getMonthAvailability(month: string, signal?: AbortSignal): Promise<AvailableMonth> {
  const { availableMonthSchema } = await import('./availability-schemas');
  const answer = await api<unknown>(`/available/month?${new URLSearchParams({ month })}`, {
    signal,
    anonymous: true,
  });
  return decodeAnswer(availableMonthSchema, answer);
}

/**
 * The status of each day of a month ('YYYY-MM'), cached per month under every day's
 * availability, so that a booking or a cancellation (which invalidates `bookingKeys.available`)
 * refreshes it too; nothing is asked before the month is known.
 */
export const monthAvailabilityQuery = (month: string | null) =>
  queryOptions({
    queryKey: [...bookingKeys.available, 'month', month] as const,
    queryFn: month ? ({ signal }) => getMonthAvailability(month, signal) : skipToken,
    staleTime: 30_000,
  });

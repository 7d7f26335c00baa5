import type { ClinicCalendar, IsoDate } from '@doctors-portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, decodeAnswer } from '../lib/api-client';

/**
 * The clinic's calendar, shared by the booking calendar (which disables the closed days) and the
 * clinic's own screen (which changes them): every range's answer sits under `all`.
 */
export const clinicCalendarKeys = {
  all: ['clinic-calendar'] as const,
  range: (from: IsoDate, to: IsoDate) => ['clinic-calendar', from, to] as const,
};

/** `GET /api/clinic/calendar?from=…&to=…` (public): the closed dates of the range. */
export async function getClinicCalendar(
  from: IsoDate,
  to: IsoDate,
  signal?: AbortSignal,
): Promise<ClinicCalendar> {
  const { clinicCalendarSchema } = await import('./clinic-calendar-schema');
  const answer = await api<unknown>(`/clinic/calendar?${new URLSearchParams({ from, to })}`, {
    signal,
    anonymous: true,
  });
  return decodeAnswer(clinicCalendarSchema, answer);
}

/** The closed dates of a range; the previous range's stay on screen while the next loads. */
export const clinicCalendarQuery = (from: IsoDate, to: IsoDate) =>
  queryOptions({
    queryKey: clinicCalendarKeys.range(from, to),
    queryFn: ({ signal }) => getClinicCalendar(from, to, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

import { type ScheduleSearch, scheduleSearchSchema } from '@doctors-portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { scheduleKeys } from '../../../api/schedule-keys';
import { api, decodeAnswer } from '../../../lib/api-client';

/**
 * `GET /api/schedule/search?q=…` (administrators): the bookings on any date, cancelled ones
 * included, whose patient's name or email contains `q` (2 to 200 characters once trimmed),
 * upcoming first then past, at most 100 (`more` when others match), each date decoded to an
 * IsoDate.
 */
export async function searchSchedule(q: string, signal?: AbortSignal): Promise<ScheduleSearch> {
  const search = new URLSearchParams({ q: q.trim() });
  const answer = await api<unknown>(`/schedule/search?${search}`, { signal });
  return decodeAnswer(scheduleSearchSchema, answer);
}

/**
 * A search of the schedule. Its key is under the schedule's, so that a change to a booking
 * (a visit's status, a cancellation) reads it again; the previous answer stays on screen while
 * the next search loads.
 */
export const scheduleSearchQuery = (q: string) =>
  queryOptions({
    queryKey: [...scheduleKeys.all, 'search', q.trim()] as const,
    queryFn: ({ signal }) => searchSchedule(q, signal),
    placeholderData: keepPreviousData,
  });

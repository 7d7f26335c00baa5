import { type IsoDate, type Schedule, scheduleSchema } from '@doctors-portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { scheduleKeys } from '../../../api/schedule-keys';
import { api, decodeAnswer } from '../../../lib/api-client';

export interface ScheduleRange {
  from: IsoDate;
  to: IsoDate;
  /** One treatment's bookings only; '' for all. */
  treatmentId: string;
  /** The patients whose name or email contains it; '' for all. */
  q: string;
}

/**
 * `GET /api/schedule?from=…&to=…` (administrators): the range's bookings in slot order, each
 * date decoded to an IsoDate.
 */
export async function getSchedule(range: ScheduleRange, signal?: AbortSignal): Promise<Schedule> {
  const search = new URLSearchParams({ from: range.from, to: range.to });
  if (range.treatmentId) search.set('treatmentId', range.treatmentId);
  if (range.q.trim()) search.set('q', range.q.trim());
  const answer = await api<unknown>(`/schedule?${search}`, { signal });
  return decodeAnswer(scheduleSchema, answer);
}

/** The schedule of a range; the previous range stays on screen while the next one loads. */
export const scheduleQuery = (range: ScheduleRange) =>
  queryOptions({
    queryKey: scheduleKeys.range(range),
    queryFn: ({ signal }) => getSchedule(range, signal),
    placeholderData: keepPreviousData,
    // The front desk's screen stays current as others book, pay and cancel.
    refetchInterval: 60_000,
  });

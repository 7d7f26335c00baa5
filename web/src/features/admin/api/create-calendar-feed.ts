import { type CalendarFeed, calendarFeedSchema } from '@doctors-portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';

/**
 * `POST /api/doctor/{id}/calendar-feed` (admin): answers the doctor's new secret iCalendar feed
 * URL. Any earlier URL of theirs stops working at once; the server keeps only a hash, so this
 * answer is the only time the URL is seen.
 */
export async function createCalendarFeed(doctorId: string): Promise<CalendarFeed> {
  const answer = await api<unknown>(`/doctor/${encodeURIComponent(doctorId)}/calendar-feed`, {
    method: 'POST',
  });
  return decodeAnswer(calendarFeedSchema, answer);
}

/** Makes a doctor's new calendar feed URL (nothing cached changes). */
export function useCreateCalendarFeed() {
  return useMutation({ mutationFn: createCalendarFeed });
}

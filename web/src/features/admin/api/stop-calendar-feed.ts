import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * `DELETE /api/doctor/{id}/calendar-feed` (admin): turns the doctor's calendar feed off (204);
 * its URL stops working. A feed already off is no error.
 */
export const stopCalendarFeed = (doctorId: string) =>
  api<null>(`/doctor/${encodeURIComponent(doctorId)}/calendar-feed`, { method: 'DELETE' });

/** Turns a doctor's calendar feed off (nothing cached changes). */
export function useStopCalendarFeed() {
  return useMutation({ mutationFn: stopCalendarFeed });
}

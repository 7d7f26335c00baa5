import { type OpeningDaysChange, openingDaysChangeSchema } from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { invalidateClinicCalendar } from './invalidate';

/**
 * `PUT /api/clinic/opening-days` (administrators): the weekdays the clinic opens, 0 = Sunday;
 * the answer lists the coming year's live bookings on the weekdays it closed.
 */
export async function setOpeningDays(days: number[]): Promise<OpeningDaysChange> {
  const answer = await api<unknown>('/clinic/opening-days', { method: 'PUT', body: { days } });
  return decodeAnswer(openingDaysChangeSchema, answer);
}

/** Sets the opening days; the calendar and the availability are read again after. */
export function useSetOpeningDays() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setOpeningDays,
    onSettled: () => invalidateClinicCalendar(queryClient),
  });
}

import {
  type ClosureRequest,
  type ClosureWithBookings,
  closureWithBookingsSchema,
} from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { invalidateClinicCalendar } from './invalidate';

/**
 * `POST /api/closures` (administrators): closes the clinic from `from` to `to` with a label; the
 * answer lists the live bookings already on those days.
 */
export async function addClosure(closure: ClosureRequest): Promise<ClosureWithBookings> {
  const answer = await api<unknown>('/closures', { method: 'POST', body: { ...closure } });
  return decodeAnswer(closureWithBookingsSchema, answer);
}

/** Adds a closure; the calendar, the closures and the availability are read again after. */
export function useAddClosure() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addClosure,
    onSettled: () => invalidateClinicCalendar(queryClient),
  });
}

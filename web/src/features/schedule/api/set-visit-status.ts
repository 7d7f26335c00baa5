import { type Booking, bookingSchema, type VisitStatus } from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { scheduleKeys } from '../../../api/schedule-keys';
import { api, decodeAnswer } from '../../../lib/api-client';

/**
 * `PATCH /api/booking/{id}/status` (administrators): marks how a visit went. The server answers
 * 409 with its reason for a change it does not allow.
 */
export async function setVisitStatus(input: {
  id: string;
  status: VisitStatus;
}): Promise<{ changed: boolean; booking: Booking }> {
  const answer = await api<{ changed: boolean; booking: unknown }>(
    `/booking/${encodeURIComponent(input.id)}/status`,
    { method: 'PATCH', body: { status: input.status } },
  );
  return { changed: answer.changed, booking: decodeAnswer(bookingSchema, answer.booking) };
}

/** Sets a visit's status; whatever the answer, the schedule is read again. */
export function useSetVisitStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setVisitStatus,
    onSettled: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.all }),
  });
}

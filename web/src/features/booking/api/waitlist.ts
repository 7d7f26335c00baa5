import type { IsoDate } from '@doctors-portal/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';

/** The query key of the signed-in patient's waitlist entries. */
export const waitlistKey = ['waitlist'] as const;

/** `GET /api/waitlist`: the patient's own entries, dates decoded to IsoDates. */
export const myWaitlistQuery = queryOptions({
  queryKey: waitlistKey,
  queryFn: async ({ signal }) => {
    const { waitlistSchema } = await import('./waitlist-schemas');
    const answer = await api<unknown>('/waitlist', { signal, sessionEndsOn: [401] });
    return decodeAnswer(waitlistSchema, answer).entries;
  },
});

/** `POST /api/waitlist`: waits for a slot of the treatment on the date (sent in medium format). */
export function useJoinWaitlist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ treatmentId, date }: { treatmentId: string; date: IsoDate }) => {
      const { mediumDateField } = await import('./waitlist-schemas');
      return api<{ id: string; treatment: string }>('/waitlist', {
        method: 'POST',
        body: { treatmentId, date: mediumDateField.encode(date) },
        sessionEndsOn: [401],
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: waitlistKey }),
  });
}

/** `DELETE /api/waitlist/:id`: leaves one of the patient's entries. */
export function useLeaveWaitlist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<null>(`/waitlist/${encodeURIComponent(id)}`, {
        method: 'DELETE',
        sessionEndsOn: [401],
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: waitlistKey }),
  });
}

import { type MailFailure, mailFailuresSchema } from '@doctors-portal/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';

const failureKeys = { all: ['mail-failures'] as const };

/** `GET /api/mail/failures` (administrators): the messages the portal failed to send, newest first. */
export async function getMailFailures(signal?: AbortSignal): Promise<MailFailure[]> {
  const answer = await api<unknown>('/mail/failures', { signal });
  return decodeAnswer(mailFailuresSchema, answer).failures;
}

export const mailFailuresQuery = queryOptions({
  queryKey: failureKeys.all,
  queryFn: ({ signal }) => getMailFailures(signal),
});

/** `POST /api/mail/failures/{id}/retry` (administrators): the message is due again now. */
export async function retryMail(id: string): Promise<void> {
  await api<unknown>(`/mail/failures/${encodeURIComponent(id)}/retry`, { method: 'POST' });
}

/** Retries a message; whatever the answer, the list is read again. */
export function useRetryMail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryMail,
    onSettled: () => queryClient.invalidateQueries({ queryKey: failureKeys.all }),
  });
}

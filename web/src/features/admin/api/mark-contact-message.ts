import { type ContactMessage, contactMessageSchema } from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { messageKeys } from './contact-message-keys';

/** `PATCH /api/contact-messages/{id}` (administrators): marks a message read or unread. */
export async function markMessage(input: { id: string; read: boolean }): Promise<ContactMessage> {
  const answer = await api<unknown>(`/contact-messages/${encodeURIComponent(input.id)}`, {
    method: 'PATCH',
    body: { read: input.read },
  });
  return decodeAnswer(contactMessageSchema, answer);
}

/** Marks a message; whatever the answer, the list is read again. */
export function useMarkMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markMessage,
    onSettled: () => queryClient.invalidateQueries({ queryKey: messageKeys.all }),
  });
}

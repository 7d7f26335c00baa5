import type { ContactRequest } from '@doctors-portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * `POST /api/contact` (public): the Contact Us form's message, stored and mailed to the clinic.
 * Answers what the form says next; a 400 carries the reasons per field, a 429 says when to try
 * again (ApiError).
 */
export const sendContactMessage = (message: ContactRequest) =>
  api<{ success: true; message: string }>('/contact', {
    method: 'POST',
    body: { ...message },
    anonymous: true,
  });

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}

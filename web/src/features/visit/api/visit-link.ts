import {
  type IsoDate,
  mediumDateField,
  type RescheduleRequest,
  type VisitLink,
  type VisitLinkOutcome,
  visitLinkOutcomeSchema,
  visitLinkSchema,
} from '@doctors-portal/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { bookingKeys } from '../../../api/booking-keys';
import { api, decodeAnswer } from '../../../lib/api-client';

/** The address of a link's calls: the token as one path segment. */
const linkPath = (token: string) => `/visit/${encodeURIComponent(token)}`;

/**
 * `GET /api/visit/{token}` (no sign-in): what a mail's link does, to which visit, and the
 * clinic's cancellation policy. A link that cannot be used is an ApiError: 404 not valid, 410
 * expired, 409 used or no longer possible, with the message to show.
 */
export async function getVisitLink(token: string, signal?: AbortSignal): Promise<VisitLink> {
  const answer = await api<unknown>(linkPath(token), { signal, anonymous: true });
  return decodeAnswer(visitLinkSchema, answer);
}

export const visitLinkQuery = (token: string) =>
  queryOptions({
    queryKey: ['visit-link', token],
    queryFn: ({ signal }) => getVisitLink(token, signal),
    // A link's answer changes only when it is used, which this page does itself.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/** What a link does once used: confirm or cancel as they are, or move to a date and slot. */
export type VisitLinkUse =
  | { action: 'confirm' | 'cancel' }
  | { action: 'reschedule'; date: IsoDate; slot: string };

/**
 * `POST /api/visit/{token}/{action}`: uses the link (once), answering the visit as it is now
 * and whether its payment was refunded. A move's day is sent in the spec's medium format.
 */
export async function sendVisitLinkUse(
  token: string,
  use: VisitLinkUse,
): Promise<VisitLinkOutcome> {
  const body: RescheduleRequest | undefined =
    use.action === 'reschedule'
      ? { date: mediumDateField.encode(use.date), slot: use.slot }
      : undefined;
  const answer = await api<unknown>(`${linkPath(token)}/${use.action}`, {
    method: 'POST',
    anonymous: true,
    ...(body && { body: { ...body } }),
  });
  return decodeAnswer(visitLinkOutcomeSchema, answer);
}

/**
 * Uses a link. Whatever the answer, every day's free slots are read again (a cancel or a move
 * frees one; a refused move may have met a slot just taken), and so are the patient's bookings,
 * should they be signed in.
 */
export function useVisitLinkAction(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (use: VisitLinkUse) => sendVisitLinkUse(token, use),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: bookingKeys.available });
      return queryClient.invalidateQueries({ queryKey: bookingKeys.bookings });
    },
  });
}

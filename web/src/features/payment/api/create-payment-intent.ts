import { type Booking, paymentIntentResponseSchema } from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { retryUnlessRefused } from '../../../lib/query-client';
import { paymentKeys } from './keys';

/**
 * `POST /api/create-payment-intent`: the client secret for paying the booking at its price (409
 * when it was paid meanwhile). The server answers the same intent when asked again, so this is
 * safe to repeat, and is read like a query.
 */
export async function createPaymentIntent(
  booking: Pick<Booking, '_id' | 'price'>,
  signal?: AbortSignal,
): Promise<{ clientSecret: string }> {
  const answer = await api<unknown>('/create-payment-intent', {
    method: 'POST',
    body: { bookingId: booking._id, price: booking.price },
    signal,
  });
  return decodeAnswer(paymentIntentResponseSchema, answer);
}

export const paymentIntentQuery = (booking: Pick<Booking, '_id' | 'price'>) =>
  queryOptions({
    queryKey: paymentKeys.intent(booking._id),
    queryFn: ({ signal }) => createPaymentIntent(booking, signal),
    staleTime: Number.POSITIVE_INFINITY,
    // A secret is for this visit to the page only: forget it when the page is left.
    gcTime: 0,
    retry: retryUnlessRefused,
  });

import type { Booking, DemoConfirmResult, PaymentConfig } from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';

/**
 * The payment calls (spec section 7): which card gateway to use, the booking to pay, its payment
 * intent's client secret, the demo gateway's card confirmation, and the PATCH that has the server
 * verify the payment and mark the booking paid.
 */
export const paymentKeys = {
  config: ['payment-config'] as const,
  /** Kept apart from `bookingKeys.bookings`, so refreshing the list leaves the page alone. */
  booking: (id: string) => ['booking', id] as const,
  intent: (id: string) => ['payment-intent', id] as const,
};

/** A client error (4xx) will answer the same when asked again; anything else may not. */
export const retryUnlessRefused = (failures: number, error: Error) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2;

/** `GET /api/payment-config` (public): the demo gateway, or Stripe with its publishable key. */
export const paymentConfigQuery = queryOptions({
  queryKey: paymentKeys.config,
  queryFn: ({ signal }) => api<PaymentConfig>('/payment-config', { signal, anonymous: true }),
  staleTime: Number.POSITIVE_INFINITY,
  retry: retryUnlessRefused,
});

/** `GET /api/booking/{id}`: one of the patient's bookings (404 unknown, 403 someone else's). */
export const bookingQuery = (id: string) =>
  queryOptions({
    queryKey: paymentKeys.booking(id),
    queryFn: ({ signal }) => api<Booking>(`/booking/${encodeURIComponent(id)}`, { signal }),
    retry: retryUnlessRefused,
  });

/**
 * `POST /api/create-payment-intent`: the client secret for paying the booking at its price.
 * The server answers the same intent when asked again, so this is safe to repeat.
 */
export const paymentIntentQuery = (booking: Pick<Booking, '_id' | 'price'>) =>
  queryOptions({
    queryKey: paymentKeys.intent(booking._id),
    queryFn: ({ signal }) =>
      api<{ clientSecret: string }>('/create-payment-intent', {
        method: 'POST',
        body: { bookingId: booking._id, price: booking.price },
        signal,
      }),
    staleTime: Number.POSITIVE_INFINITY,
    // A secret is for this visit to the page only: forget it when the page is left.
    gcTime: 0,
    retry: retryUnlessRefused,
  });

export interface BillingDetails {
  name: string;
  email: string;
}

export interface DemoCard {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  postalCode: string;
}

/** `POST /api/demo-gateway/confirm`: answers like Stripe.js's confirmCardPayment (200 either way). */
export const confirmDemoPayment = (clientSecret: string, card: DemoCard, billing: BillingDetails) =>
  api<DemoConfirmResult>('/demo-gateway/confirm', {
    method: 'POST',
    body: { clientSecret, card: { ...card }, billingDetails: { ...billing } },
  });

/** `PATCH /api/booking/{id}`: the server checks the payment with the provider, then marks it paid. */
export const recordPayment = (bookingId: string, transactionId: string) =>
  api<{ modifiedCount: 0 | 1; booking: Booking }>(`/booking/${encodeURIComponent(bookingId)}`, {
    method: 'PATCH',
    body: { appointmentId: bookingId, transactionId },
  });

/**
 * The query keys of the payment page. A booking being paid is kept apart from
 * `bookingKeys.bookings`, so refreshing the list leaves the page alone.
 */
export const paymentKeys = {
  config: ['payment-config'] as const,
  booking: (id: string) => ['booking', id] as const,
  intent: (id: string) => ['payment-intent', id] as const,
};

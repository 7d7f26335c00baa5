import { z } from 'zod';

/** Which card gateway the portal uses; the payment page loads the matching card form. */
export const paymentConfigSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('demo') }),
  z.object({ provider: z.literal('stripe'), publishableKey: z.string() }),
]);
export type PaymentConfig = z.infer<typeof paymentConfigSchema>;

/** `POST /api/create-payment-intent`: the booking to pay; `price`, if sent, must match it. */
export const createPaymentIntentSchema = z.object({
  bookingId: z.string().min(1).max(100),
  price: z.number().optional(),
});
export const paymentIntentResponseSchema = z.object({ clientSecret: z.string() });

/** `PATCH /api/booking/{id}`: the payment the browser completed, for the server to verify. */
export const confirmPaymentSchema = z.object({
  appointmentId: z.string().min(1).max(100),
  transactionId: z.string().min(1).max(200),
});

/** The demo gateway's card form (the same fields and rules as Stripe's card element). */
export const demoCardSchema = z.object({
  number: z.string().max(40),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  cvc: z.string().max(8),
  postalCode: z.string().max(20),
});

/** `POST /api/demo-gateway/confirm`: confirms a demo payment intent as Stripe.js would. */
export const demoConfirmSchema = z.object({
  clientSecret: z.string().min(1).max(300),
  card: demoCardSchema,
  billingDetails: z.object({ name: z.string().max(200), email: z.string().max(254) }),
});

/** The gateway's answer, shaped like Stripe.js's `confirmCardPayment` result. */
export const demoConfirmResultSchema = z.union([
  z.object({ paymentIntent: z.object({ id: z.string(), status: z.literal('succeeded') }) }),
  z.object({
    error: z.object({ type: z.literal('card_error'), code: z.string(), message: z.string() }),
  }),
]);
export type DemoConfirmResult = z.infer<typeof demoConfirmResultSchema>;

import {
  bookingSchema,
  confirmPaymentSchema,
  createPaymentIntentSchema,
  demoConfirmResultSchema,
  demoConfirmSchema,
  paymentConfigSchema,
  paymentIntentResponseSchema,
} from '@doctors-portal/contract';
import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import { z } from 'zod';
import { callerOf, requireUser } from '../auth/guards.js';
import { errorBody, handleError } from '../http/errors.js';
import { confirmDemoPayment } from './demo-gateway.js';
import { PaymentProviderError } from './provider.js';
import { paymentErrors } from './repository.js';
import { confirmPayment, createPaymentIntent, readBooking } from './service.js';
import { stripeWebhookRoutes } from './webhook.js';

const error = z.object({
  statusCode: z.number(),
  error: z.string(),
  message: z.string(),
  issues: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
// A malformed id names no booking: 404 like an unknown one, rather than a 400.
const bookingParams = z.object({ id: z.uuid() });

/**
 * Paying a booking by card (spec sections 4 and 7): the payment configuration, the payment
 * intent, the booking the payment page shows, the confirmation that marks it paid, and the
 * gateway's own calls: the demo gateway's card confirmation, or Stripe's webhook.
 */
export const paymentRoutes: FastifyPluginAsyncZod<{ stripe: Stripe | null }> = async (
  app,
  { stripe },
) => {
  const settings = app.config.payments;
  const { payments } = app;
  if (payments.provider.name === 'demo' && app.config.env === 'production') {
    app.log.warn('Stripe is not configured: payments use the demo gateway, which moves no money');
  }

  // The gateway failing is not our failure: say so, and that trying again may help.
  app.setErrorHandler((err, request, reply) => {
    if (!(err instanceof PaymentProviderError)) {
      return handleError(err as FastifyError, request, reply);
    }
    request.log.error({ err }, 'the payment provider failed');
    return reply.code(502).send(errorBody(502, paymentErrors.providerUnavailable));
  });

  app.get(
    '/payment-config',
    {
      schema: {
        summary: 'Which card gateway the payment page uses, with its publishable key',
        tags: ['payments'],
        response: { 200: paymentConfigSchema },
      },
    },
    async () =>
      settings.provider === 'stripe'
        ? { provider: 'stripe' as const, publishableKey: settings.publishableKey }
        : { provider: 'demo' as const },
  );

  app.post(
    '/create-payment-intent',
    {
      preHandler: requireUser,
      schema: {
        summary: "The client secret for paying one of your bookings, at the booking's price",
        description:
          "The amount is always the stored booking's price; `price`, when sent, must equal it " +
          '(in dollars) or the call is refused. Asked again for the same booking, it answers ' +
          'the same intent. 409 when the booking is already paid.',
        tags: ['payments'],
        security: [{ bearer: [] }],
        body: createPaymentIntentSchema,
        response: {
          200: paymentIntentResponseSchema,
          400: error,
          401: error,
          403: error,
          404: error,
          409: error,
          502: error,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return createPaymentIntent(payments, request.log, callerOf(request), request.body);
    },
  );

  // The payment page's booking. The bookings routes serve the list; this one serves one booking.
  app.get(
    '/booking/:id',
    {
      preHandler: requireUser,
      attachValidation: true,
      schema: {
        summary: 'One booking, for its patient or an administrator',
        tags: ['payments'],
        security: [{ bearer: [] }],
        params: bookingParams,
        response: { 200: bookingSchema, 401: error, 403: error, 404: error },
      },
    },
    async (request, reply) => {
      if (request.validationError) {
        return reply.code(404).send(errorBody(404, paymentErrors.noSuchBooking));
      }
      reply.header('cache-control', 'private, no-store');
      return readBooking(payments, callerOf(request), request.params.id);
    },
  );

  app.patch(
    '/booking/:id',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Mark your booking paid, once the payment provider confirms the payment',
        description:
          'The provider is asked whether `transactionId` succeeded for this booking and its ' +
          'price; otherwise the booking stays unpaid (400). Repeating a successful call answers ' +
          '200 with modifiedCount 0; another payment for a paid booking answers 409.',
        tags: ['payments'],
        security: [{ bearer: [] }],
        params: z.object({ id: z.string() }),
        body: confirmPaymentSchema,
        response: {
          200: z.object({
            modifiedCount: z.union([z.literal(0), z.literal(1)]),
            booking: bookingSchema,
          }),
          400: error,
          401: error,
          403: error,
          404: error,
          409: error,
          502: error,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!bookingParams.safeParse({ id }).success) {
        return reply.code(404).send(errorBody(404, paymentErrors.noSuchBooking));
      }
      return confirmPayment(payments, request.log, callerOf(request), id, request.body);
    },
  );

  if (payments.provider.name === 'demo') {
    app.post(
      '/demo-gateway/confirm',
      {
        preHandler: requireUser,
        schema: {
          summary: 'Pay a demo payment intent with a card (the offline demo gateway)',
          description:
            "Judges the card by Stripe's test-mode rules and answers as Stripe.js's " +
            'confirmCardPayment does: card errors are answers (200 with `error`), not failures. ' +
            'No money moves.',
          tags: ['payments'],
          security: [{ bearer: [] }],
          body: demoConfirmSchema,
          response: {
            200: demoConfirmResultSchema,
            400: error,
            401: error,
            403: error,
            404: error,
            409: error,
          },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return confirmDemoPayment(app.db, callerOf(request), request.body);
      },
    );
  }

  if (stripe && settings.provider === 'stripe') {
    await app.register(stripeWebhookRoutes, {
      stripe,
      webhookSecret: settings.webhookSecret,
      payments,
    });
  }
};

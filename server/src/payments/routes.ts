import {
  createPaymentIntentSchema,
  demoConfirmResultSchema,
  demoConfirmSchema,
  paymentConfigSchema,
  paymentIntentResponseSchema,
} from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf, requireUser } from '../auth/guards.js';
import { errorResponses } from '../http/errors.js';
import { confirmDemoPayment } from './demo-gateway.js';
import { answerPaymentFailure } from './errors.js';
import { createPaymentIntent } from './service.js';
import { stripeWebhookRoutes } from './webhook.js';

/**
 * Paying a booking by card (spec sections 4 and 7): `/api/payment-config`,
 * `/api/create-payment-intent`, and the gateway's own calls: the demo gateway's card
 * confirmation (`/api/demo-gateway/confirm`), or Stripe's webhook (`/api/stripe/webhook`,
 * webhook.ts). The confirmation that marks a booking paid is `PATCH /api/booking/{id}`, with the
 * bookings routes.
 */
export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { stripe } = app;
  const settings = app.config.payments;
  const { payments } = app;
  if (payments.provider.name === 'demo' && app.config.env === 'production') {
    app.log.warn('Stripe is not configured: payments use the demo gateway, which moves no money');
  }

  app.setErrorHandler(answerPaymentFailure);

  app.get(
    '/payment-config',
    {
      schema: {
        operationId: 'getPaymentConfig',
        summary: 'Which card gateway the payment page uses, with its publishable key',
        tags: ['payments'],
        security: [],
        response: { 200: paymentConfigSchema, ...errorResponses(400) },
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
      onRequest: requireUser,
      schema: {
        operationId: 'createPaymentIntent',
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
          ...errorResponses(400, 401, 403, 404, 409, 502),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return createPaymentIntent(payments, request.log, callerOf(request), request.body);
    },
  );

  if (payments.provider.name === 'demo') {
    app.post(
      '/demo-gateway/confirm',
      {
        onRequest: requireUser,
        schema: {
          operationId: 'confirmDemoPayment',
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
            ...errorResponses(400, 401, 403, 404, 409),
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

import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { z } from 'zod';
import { systemActor } from '../audit/log.js';
import { findBooking } from '../bookings/repository.js';
import { errorResponseSchema as error, errorBody } from '../http/errors.js';
import { notYetRecorded, recordRefundFailure } from './refund-failure.js';
import { recordStripeEvent, stripeEventHandled } from './repository.js';
import { mismatch, type Payments, refundOrphanedCharge, settle } from './service.js';
import { fromStripeIntent } from './stripe.js';

export const webhookErrors = {
  noSignature: 'Missing the Stripe-Signature header: only Stripe may call this address.',
  badSignature:
    'The Stripe-Signature does not match this body: check that STRIPE_WEBHOOK_SECRET is the signing secret of this endpoint.',
} as const;

/**
 * `POST /api/stripe/webhook`: Stripe's events, verified by their signature over the raw body
 * (hence this route's own JSON parser, which keeps the bytes). A `payment_intent.succeeded`
 * marks its booking paid exactly as a confirmation from the browser would; that covers a patient
 * who closed the page before the browser could tell us. A charge that pays for nothing (its
 * booking is gone, was cancelled, or was paid by another payment) is refunded and logged.
 * Stripe delivers an event at least once: one already handled is acknowledged and changes
 * nothing. A `refund.failed` tells the clinic that a refund gave nothing back
 * (payments/refund-failure.ts).
 */
export async function stripeWebhookRoutes(
  app: FastifyInstance,
  options: { stripe: Stripe; webhookSecret: string; payments: Payments },
) {
  const { stripe, webhookSecret, payments } = options;
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/stripe/webhook',
    {
      schema: {
        operationId: 'receiveStripeEvent',
        summary:
          "Stripe's events (signed): marks a booking paid when its payment succeeds, and tells the clinic of a refund that failed",
        tags: ['payments'],
        security: [{ stripeSignature: [] }],
        response: {
          200: z.object({ received: z.literal(true), duplicate: z.boolean() }),
          400: error,
          503: error,
        },
      },
    },
    async (request, reply) => {
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || signature === '') {
        return reply.code(400).send(errorBody(400, webhookErrors.noSignature));
      }
      if (!Buffer.isBuffer(request.body)) {
        return reply.code(400).send(errorBody(400, webhookErrors.badSignature));
      }
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(request.body, signature, webhookSecret);
      } catch (err) {
        // The reason only: stripe-node's error carries the whole body and the signature.
        request.log.warn(
          { reason: err instanceof Error ? err.message : String(err) },
          'refused a Stripe webhook call with a bad signature',
        );
        return reply.code(400).send(errorBody(400, webhookErrors.badSignature));
      }

      if (await stripeEventHandled(payments.db, event.id)) {
        return { received: true as const, duplicate: true };
      }
      // Handled first (settling and refunding are idempotent), recorded only once done: a
      // delivery that fails or dies midway leaves no record, so Stripe's next one is handled.
      if ((await handleEvent(payments, request.log, event, app.config.clinic.email)) === 'later') {
        // Not recorded: Stripe sends it again (payments/refund-failure.ts).
        return reply.code(503).send(errorBody(503, notYetRecorded));
      }
      const first = await recordStripeEvent(payments.db, event);
      return { received: true as const, duplicate: !first };
    },
  );
}

/** What an event asks of the portal: 'later' when it must come again (not recorded). */
async function handleEvent(
  payments: Payments,
  log: FastifyBaseLogger,
  event: Stripe.Event,
  clinicEmail: string,
): Promise<'done' | 'later'> {
  switch (event.type) {
    case 'payment_intent.succeeded':
      await settleSucceededIntent(payments, log, event);
      return 'done';
    case 'refund.failed': {
      const refund = event.data.object;
      return recordRefundFailure(
        payments,
        log.child({ eventId: event.id }),
        {
          id: refund.id,
          intentId:
            typeof refund.payment_intent === 'string'
              ? refund.payment_intent
              : (refund.payment_intent?.id ?? null),
          failureReason: refund.failure_reason ?? 'unknown',
        },
        clinicEmail,
      );
    }
    default:
      return 'done';
  }
}

/** A payment that succeeded settles its booking, or is given back when it pays for nothing. */
async function settleSucceededIntent(
  payments: Payments,
  log: FastifyBaseLogger,
  event: Stripe.PaymentIntentSucceededEvent,
) {
  const intent = fromStripeIntent(event.data.object);
  const context = { eventId: event.id, transactionId: intent.id, bookingId: intent.bookingId };
  const webhook = systemActor('stripe-webhook');
  const booking = intent.bookingId ? await findBooking(payments.db, intent.bookingId) : undefined;
  if (!booking || (booking.status === 'cancelled' && booking.paid_at === null)) {
    // A charge never outlives its booking.
    await refundOrphanedCharge(
      payments,
      log.child(context),
      intent,
      booking ? 'its booking was cancelled' : 'its booking does not exist',
      webhook,
    );
    return;
  }
  const refusal = mismatch(intent, booking);
  if (refusal) {
    log.error({ ...context, refusal }, 'a succeeded Stripe payment does not match its booking');
    return;
  }
  if (!(await settle(payments, log, booking, intent, webhook))) {
    const now = await findBooking(payments.db, booking.id);
    if (now?.status === 'cancelled' && now.paid_at === null) {
      await refundOrphanedCharge(
        payments,
        log.child(context),
        intent,
        'its booking was cancelled',
        webhook,
      );
    } else if (now?.transaction_id !== intent.id) {
      await refundOrphanedCharge(
        payments,
        log.child({ ...context, paidWith: now?.transaction_id }),
        intent,
        'its booking was already paid by another payment',
        webhook,
      );
    }
  }
}

import Stripe from 'stripe';
import type { PaymentsConfig } from '../config/env.js';
import {
  type CreateIntentInput,
  type IntentStatus,
  type PaymentProvider,
  PaymentProviderError,
  type ProviderIntent,
  type ProviderRefund,
  RefundRefused,
} from './provider.js';

export type StripeSettings = Extract<PaymentsConfig, { provider: 'stripe' }>;

/**
 * stripe-node for the configured account. `apiBase` points it at a stand-in of Stripe's API (the
 * tests' server/test/stripe-stand-in.ts); otherwise it talks to api.stripe.com. Its requests
 * are retried with their idempotency keys, and give up after 20 s rather than its default 80 s:
 * a patient is waiting.
 */
export function stripeClient(settings: StripeSettings): Stripe {
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Doctors Portal' },
    ...(settings.apiBase ?? {}),
  });
}

/**
 * The idempotency key of a booking's intent: the same booking and amount always name the same
 * intent, so a retried or repeated create cannot make a second one. When the booking's intent
 * was cancelled, its successor is keyed after it.
 */
export function idempotencyKeyFor(input: CreateIntentInput): string {
  const key = `booking-${input.bookingId}-${input.amountCents}-${input.currency}`;
  return input.replaces ? `${key}-after-${input.replaces}` : key;
}

/** A PaymentIntent as the portal reads it. */
export function fromStripeIntent(intent: Stripe.PaymentIntent): ProviderIntent {
  return {
    id: intent.id,
    status: intent.status as IntentStatus,
    amountCents: intent.amount,
    currency: intent.currency,
    bookingId: intent.metadata?.bookingId ?? null,
    clientSecret: intent.client_secret ?? '',
  };
}

function fromStripeRefund(refund: Stripe.Refund): ProviderRefund {
  return { id: refund.id, amountCents: refund.amount, currency: refund.currency };
}

/** The newest refund of the intent that stands (succeeded, or still under way), if any. */
async function refundMade(stripe: Stripe, intentId: string): Promise<ProviderRefund | null> {
  try {
    const { data } = await stripe.refunds.list({ payment_intent: intentId, limit: 10 });
    const standing = data.find(
      (refund) => refund.status === 'succeeded' || refund.status === 'pending',
    );
    return standing ? fromStripeRefund(standing) : null;
  } catch (error) {
    throw unavailable(`list the refunds of the payment intent ${intentId}`, error);
  }
}

function unavailable(action: string, error: unknown): PaymentProviderError {
  const reason = error instanceof Error ? error.message : String(error);
  return new PaymentProviderError(`Stripe could not ${action}: ${reason}`, { cause: error });
}

/** Card payments through Stripe's PaymentIntents, in US dollars as cents. */
export function stripeGateway(stripe: Stripe): PaymentProvider {
  return {
    name: 'stripe',
    async createIntent(input) {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: input.currency,
            // The payment page confirms with the card element: cards only. (API versions from
            // 2026 call this allowed_payment_method_types; payment_method_types is gone.)
            allowed_payment_method_types: ['card'],
            metadata: { bookingId: input.bookingId },
            receipt_email: input.receiptEmail,
          },
          { idempotencyKey: idempotencyKeyFor(input) },
        );
        return fromStripeIntent(intent);
      } catch (error) {
        throw unavailable('create a payment intent', error);
      }
    },
    async retrieve(intentId) {
      try {
        return fromStripeIntent(await stripe.paymentIntents.retrieve(intentId));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) {
          return null;
        }
        throw unavailable(`retrieve the payment intent ${intentId}`, error);
      }
    },
    async cancel(intentId) {
      try {
        return fromStripeIntent(await stripe.paymentIntents.cancel(intentId));
      } catch (error) {
        // Too late to cancel (it succeeded, or is processing): say how it stands.
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          error.code === 'payment_intent_unexpected_state'
        ) {
          return this.retrieve(intentId);
        }
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) {
          return null;
        }
        throw unavailable(`cancel the payment intent ${intentId}`, error);
      }
    },
    async refund(intent) {
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: intent.id },
          { idempotencyKey: `refund-${intent.id}` },
        );
        return fromStripeRefund(refund);
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) {
          throw unavailable(`refund the payment intent ${intent.id}`, error);
        }
        // Refunded already: by an earlier try whose answer was lost and whose idempotency key
        // Stripe has since forgotten (it keeps them 24 hours), or in Stripe's dashboard. That
        // refund is the answer, as for any repeated refund of the intent.
        const earlier =
          error.code === 'charge_already_refunded' ? await refundMade(stripe, intent.id) : null;
        if (earlier) return earlier;
        throw new RefundRefused(error.message, { cause: error });
      }
    },
  };
}

import type { PaymentProviderName } from '../db/schema.js';

/**
 * A card gateway as the portal uses it: it creates a payment intent for a booking, which the
 * browser confirms with the card, and it tells the server what became of an intent. The server
 * marks a booking paid only on the gateway's word (see service.ts), never on the browser's.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /**
   * An intent to charge `amountCents` for a booking, naming the booking in its metadata.
   * Idempotent per booking and amount: asked twice, it answers the same intent.
   */
  createIntent(input: CreateIntentInput): Promise<ProviderIntent>;
  /** The intent as the gateway knows it now, or null when it has no intent by that id. */
  retrieve(intentId: string): Promise<ProviderIntent | null>;
  /**
   * Cancels an intent that has not been paid, so that no card can pay it any more. Answers the
   * intent as it then stands: 'canceled', or the status that kept it from being cancelled
   * ('succeeded', 'processing'); null when the gateway has no such intent.
   */
  cancel(intentId: string): Promise<ProviderIntent | null>;
  /**
   * Gives back the whole of a succeeded intent's charge. Idempotent per intent: asked again, it
   * answers the same refund. Throws a RefundRefused when the gateway will not refund it.
   */
  refund(intent: ProviderIntent): Promise<ProviderRefund>;
}

export interface ProviderRefund {
  /** 're_…'. */
  id: string;
  amountCents: number;
  currency: string;
}

/** The gateway answered that this charge cannot be refunded, and why. */
export class RefundRefused extends Error {
  override name = 'RefundRefused';
}

export interface CreateIntentInput {
  bookingId: string;
  amountCents: number;
  currency: 'usd';
  /** Where the gateway may send its own receipt. */
  receiptEmail: string;
  /** The id of an intent of this booking that can no longer be paid (cancelled), if any. */
  replaces?: string;
}

/** Stripe's PaymentIntent statuses; the demo gateway uses the first and the last. */
export type IntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

export interface ProviderIntent {
  id: string;
  status: IntentStatus;
  amountCents: number;
  /** Lower case ISO code, e.g. 'usd'. */
  currency: string;
  /** The booking named in the intent's metadata; null for an intent the portal did not make. */
  bookingId: string | null;
  /** What the browser confirms the intent with. */
  clientSecret: string;
}

/** The gateway could not be reached or answered unexpectedly: the request may be retried. */
export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
}

import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { Database, PaymentIntentTable, RefundTable } from '../db/schema.js';

/** The answers a patient can act on; the spec leaves these situations unworded. */
export const paymentErrors = {
  noSuchBooking: 'There is no such booking.',
  notYourBookingToSee: 'You can only see your own appointments.',
  notYourBookingToPay: 'You can only pay for your own appointments.',
  alreadyPaid: 'This booking is already paid.',
  priceMismatch: 'The price does not match this booking.',
  appointmentMismatch: 'appointmentId must be the id of the booking in the address.',
  noSuchPayment: 'The payment provider has no such payment, so the booking stays unpaid.',
  otherBooking: 'That payment is for another booking, so this booking stays unpaid.',
  notSucceeded: 'That payment has not succeeded, so the booking stays unpaid.',
  otherAmount: 'That payment is not for the price of this booking, so the booking stays unpaid.',
  providerUnavailable: 'The payment provider could not be reached. Please try again in a moment.',
  unverified:
    'Please verify your email address first: follow the link we sent you, or ask for a new one.',
  bookingCancelled: 'This booking was cancelled, so it cannot be paid.',
  refundedCancelled:
    'This booking was cancelled before your payment arrived, so the payment has been refunded in full.',
} as const;

export type StoredIntent = PaymentIntentTable;

/** The provider intent recorded for a booking, if any. */
export async function findStoredIntent(
  db: Kysely<Database>,
  bookingId: string,
): Promise<StoredIntent | undefined> {
  return db
    .selectFrom('payment_intent')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .executeTakeFirst();
}

/** Records (or replaces) the intent that settles a booking. */
export async function storeIntent(db: Kysely<Database>, intent: StoredIntent): Promise<void> {
  await db
    .insertInto('payment_intent')
    .values(intent)
    .onConflict((conflict) =>
      conflict.column('booking_id').doUpdateSet({
        provider: intent.provider,
        intent_id: intent.intent_id,
        amount_cents: intent.amount_cents,
        currency: intent.currency,
        created_at: intent.created_at,
      }),
    )
    .execute();
}

/** A payment the provider confirmed: which intent, for how much. */
export interface ConfirmedPayment {
  provider: string;
  transactionId: string;
  amountCents: number;
  currency: string;
}

/**
 * Marks an unpaid booking paid and stores its payment, in one transaction. Answers whether
 * this call did it: false when the booking was already paid (or was cancelled, or is gone). A concurrent call for
 * the same booking either waits for this one and finds it paid, or breaks the payment table's
 * unique booking id and is rolled back (see `isUniqueViolation`). `whilePaying` runs in the
 * same transaction once the payment is stored (the receipt is queued there).
 */
export async function markPaid(
  db: Kysely<Database>,
  bookingId: string,
  payment: ConfirmedPayment,
  whilePaying: (trx: Kysely<Database>) => Promise<void> = async () => {},
  paidAt: Date = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('booking')
      .set({ paid_at: paidAt.toISOString(), transaction_id: payment.transactionId })
      .where('id', '=', bookingId)
      .where('paid_at', 'is', null)
      .where('status', '<>', 'cancelled')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return false;
    await trx
      .insertInto('payment')
      .values({
        id: randomUUID(),
        booking_id: bookingId,
        provider: payment.provider,
        transaction_id: payment.transactionId,
        amount_cents: payment.amountCents,
        currency: payment.currency,
        created_at: paidAt.toISOString(),
      })
      .execute();
    await whilePaying(trx);
    return true;
  });
}

/** Records a refund the provider made; a second record of the same refund changes nothing. */
export async function recordRefund(db: Kysely<Database>, refund: Insertable<RefundTable>) {
  await db
    .insertInto('refund')
    .values(refund)
    .onConflict((conflict) => conflict.column('intent_id').doNothing())
    .execute();
}

/**
 * Whether a failed statement broke a unique index, on either engine: PostgreSQL's SQLSTATE 23505,
 * SQLite's SQLITE_CONSTRAINT_UNIQUE (or _PRIMARYKEY for a primary key).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/**
 * Records a Stripe event as handled, unless it already was: answers false for a replay.
 * Concurrent deliveries of one event wait on the primary key, and only the first records it.
 */
export async function recordStripeEvent(
  db: Kysely<Database>,
  event: { id: string; type: string },
): Promise<boolean> {
  const result = await db
    .insertInto('stripe_event')
    .values({ id: event.id, type: event.type, received_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Forgets that an event was handled, so that Stripe's next delivery of it is handled again. */
export async function forgetStripeEvent(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('stripe_event').where('id', '=', id).execute();
}

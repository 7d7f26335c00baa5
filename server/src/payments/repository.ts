import type { ExpressionBuilder, Insertable, Kysely } from 'kysely';
import { orderedId } from '../db/ordered-id.js';
import type { Database, PaymentIntentTable, PaymentTable, RefundTable } from '../db/schema.js';

/**
 * The payment tables (`payment_intent`, `payment`, `refund`, `stripe_event`): every read and
 * write of them is here. The booking a payment settles is the bookings repository's.
 */
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

/** Whether the portal took part in this provider intent: asked for it, or recorded its payment. */
export async function intentKnown(db: Kysely<Database>, intentId: string): Promise<boolean> {
  const [asked, paid] = await Promise.all([
    db
      .selectFrom('payment_intent')
      .select('booking_id')
      .where('intent_id', '=', intentId)
      .executeTakeFirst(),
    db.selectFrom('payment').select('id').where('transaction_id', '=', intentId).executeTakeFirst(),
  ]);
  return asked !== undefined || paid !== undefined;
}

/**
 * Records (or replaces) the intent that settles a booking. Concurrent requests for one booking
 * record the same intent (the providers make one per booking), so an insert that meets it on
 * either unique column does nothing: an upsert on the booking alone would, on PostgreSQL, fail on
 * the intent's own column when two of them race.
 */
export async function storeIntent(db: Kysely<Database>, intent: StoredIntent): Promise<void> {
  const inserted = await db
    .insertInto('payment_intent')
    .values(intent)
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return;
  await db
    .updateTable('payment_intent')
    .set({
      provider: intent.provider,
      intent_id: intent.intent_id,
      amount_cents: intent.amount_cents,
      currency: intent.currency,
      created_at: intent.created_at,
    })
    .where('booking_id', '=', intent.booking_id)
    .where('intent_id', '<>', intent.intent_id)
    .execute();
}

/** A payment the provider confirmed: which intent, for how much. */
export interface ConfirmedPayment {
  provider: PaymentTable['provider'];
  transactionId: string;
  amountCents: number;
  currency: string;
}

/**
 * Stores the payment that settles a booking, in the caller's transaction (the booking is marked
 * paid in the same one). A second payment for the same booking breaks the payment table's unique
 * booking id (see db/unique-violation.ts), and its transaction is rolled back.
 */
export async function insertPayment(
  tx: Kysely<Database>,
  bookingId: string,
  payment: ConfirmedPayment,
  paidAt: Date,
): Promise<void> {
  await tx
    .insertInto('payment')
    .values({
      id: orderedId(),
      booking_id: bookingId,
      provider: payment.provider,
      transaction_id: payment.transactionId,
      amount_cents: payment.amountCents,
      currency: payment.currency,
      created_at: paidAt.toISOString(),
    })
    .execute();
}

/**
 * Records a refund the provider made; a second record of the same refund changes nothing, met on
 * either its id or its intent's (as with `storeIntent`, two records racing on PostgreSQL would
 * otherwise fail on the column the conflict did not name). Answers whether this call recorded it.
 */
export async function recordRefund(
  db: Kysely<Database>,
  refund: Insertable<RefundTable>,
): Promise<boolean> {
  const result = await db
    .insertInto('refund')
    .values(refund)
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Ids in lists short enough for either engine's limit on a statement's parameters. */
function* inChunks<T>(values: T[], size = 500): Generator<T[]> {
  for (let at = 0; at < values.length; at += size) yield values.slice(at, at + size);
}

/**
 * A booking's refund, newest first, in a query over `booking` (its id, for the bookings' views):
 * the refund of the payment that paid it, or, unpaid, of a charge that came for it. Not another
 * payment's (a second charge for a paid booking, given back, leaves it paid), and not one the
 * provider reported failed, which gave nothing back.
 */
export function refundOfBooking(eb: ExpressionBuilder<Database, 'booking'>) {
  return eb
    .selectFrom('refund')
    .select('refund.id')
    .whereRef('refund.booking_id', '=', 'booking.id')
    .where('refund.failed_at', 'is', null)
    .where((own) =>
      own.or([
        own('booking.transaction_id', 'is', null),
        own('refund.intent_id', '=', own.ref('booking.transaction_id')),
      ]),
    )
    .orderBy('refund.created_at', 'desc')
    .limit(1);
}

/** The refund of each booking that has one (`refundOfBooking`), by booking id. */
export async function refundsOf(
  db: Kysely<Database>,
  bookingIds: string[],
): Promise<Map<string, string>> {
  const refunds = new Map<string, string>();
  for (const chunk of inChunks(bookingIds)) {
    const rows = await db
      .selectFrom('booking')
      .select((eb) => ['booking.id', refundOfBooking(eb).as('refund_id')])
      .where('booking.id', 'in', chunk)
      .execute();
    for (const row of rows) if (row.refund_id) refunds.set(row.id, row.refund_id);
  }
  return refunds;
}

/**
 * Records a Stripe event as handled, once its work is done, unless it already was: answers false
 * when another delivery of it recorded it first (concurrent deliveries wait on the primary key).
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

/** Whether a Stripe event was handled already: a redelivery of it is only acknowledged. */
export async function stripeEventHandled(db: Kysely<Database>, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('stripe_event')
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** The payments of these bookings, oldest first, for the patient's own data (no card data). */
export async function paymentsOfBookings(db: Kysely<Database>, bookingIds: string[]) {
  if (bookingIds.length === 0) return [];
  return db
    .selectFrom('payment')
    .select(['booking_id', 'provider', 'transaction_id', 'amount_cents', 'currency', 'created_at'])
    .where('booking_id', 'in', bookingIds)
    .orderBy('created_at')
    .execute();
}

/** The refunds of these bookings, oldest first, for the patient's own data. */
export async function refundsOfBookings(db: Kysely<Database>, bookingIds: string[]) {
  if (bookingIds.length === 0) return [];
  return db
    .selectFrom('refund')
    .select([
      'booking_id',
      'provider',
      'amount_cents',
      'currency',
      'reason',
      'created_at',
      'failed_at',
      'failure_reason',
    ])
    .where('booking_id', 'in', bookingIds)
    .orderBy('created_at')
    .execute();
}

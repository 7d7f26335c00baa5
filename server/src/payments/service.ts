import { centsToDollars } from '@doctors-portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  type AuditActor,
  bookingSubject,
  patientActor,
  recordAudit,
  systemActor,
} from '../audit/log.js';
import type { CurrentUser } from '../auth/current-user.js';
import { isOwnBooking, type PaymentRelease } from '../bookings/booking-rules.js';
import { bookingSummary } from '../bookings/presenters.js';
import { findBooking, markBookingPaid } from '../bookings/repository.js';
import type { Booking, Database } from '../db/schema.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { HttpError } from '../http/errors.js';
import type { MailQueue } from '../mail/queue.js';
import { paymentErrors } from './errors.js';
import type { PaymentProvider, ProviderIntent } from './provider.js';
import { findStoredIntent, insertPayment, recordRefund, storeIntent } from './repository.js';

/** What the payment rules work with (the `payments` plugin decorates the app with it). */
export interface Payments {
  db: Kysely<Database>;
  provider: PaymentProvider;
  mail: MailQueue;
}

/** Every payment is in US dollars, as cents. */
export const CURRENCY = 'usd';

/** The shape of the transaction ids the providers give: 'pi_…' for both. */
const INTENT_ID = /^pi_[A-Za-z0-9_]{1,190}$/;

/** The caller's own booking, or an HttpError: 404 unknown, 403 someone else's. */
async function ownBooking(
  payments: Payments,
  caller: CurrentUser,
  bookingId: string,
): Promise<Booking> {
  const booking = await findBooking(payments.db, bookingId);
  if (!booking) throw new HttpError(404, paymentErrors.noSuchBooking);
  if (!isOwnBooking(caller, booking)) throw new HttpError(403, paymentErrors.notYourBookingToPay);
  return booking;
}

/**
 * Why the provider's intent cannot pay this booking, or null when it does: it must have
 * succeeded, name this booking, and be for the booking's stored price in dollars.
 */
export function mismatch(intent: ProviderIntent, booking: Booking): string | null {
  if (intent.bookingId !== booking.id) return paymentErrors.otherBooking;
  if (intent.amountCents !== booking.price_cents || intent.currency !== CURRENCY) {
    return paymentErrors.otherAmount;
  }
  if (intent.status !== 'succeeded') return paymentErrors.notSucceeded;
  return null;
}

/**
 * `POST /api/create-payment-intent`: the client secret of the intent that pays the caller's
 * booking. The amount is the stored booking's price; a price sent along must equal it. The
 * booking's intent is reused while it can still be paid; one that has already succeeded settles
 * the booking (its confirmation never reached us) and the answer is that it is paid.
 */
export async function createPaymentIntent(
  payments: Payments,
  log: FastifyBaseLogger,
  caller: CurrentUser,
  request: { bookingId: string; price?: number | undefined },
): Promise<{ clientSecret: string }> {
  const booking = await ownBooking(payments, caller, request.bookingId);
  if (booking.paid_at !== null) throw new HttpError(409, paymentErrors.alreadyPaid);
  if (booking.status === 'cancelled') throw new HttpError(409, paymentErrors.bookingCancelled);
  if (!caller.emailVerified) throw new HttpError(403, paymentErrors.unverified);
  if (request.price !== undefined && request.price !== centsToDollars(booking.price_cents)) {
    throw new HttpError(400, paymentErrors.priceMismatch);
  }
  const { provider } = payments;
  const wanted = { bookingId: booking.id, amountCents: booking.price_cents, currency: CURRENCY };

  let replaces: string | undefined;
  const stored = await findStoredIntent(payments.db, booking.id);
  if (
    stored?.provider === provider.name &&
    stored.amount_cents === wanted.amountCents &&
    stored.currency === wanted.currency
  ) {
    const intent = await provider.retrieve(stored.intent_id);
    if (intent?.status === 'canceled') replaces = intent.id;
    else if (intent) return usable(payments, log, booking, intent);
  }

  const intent = await provider.createIntent({
    ...wanted,
    currency: CURRENCY,
    receiptEmail: booking.patient_email,
    ...(replaces ? { replaces } : {}),
  });
  await storeIntent(payments.db, {
    booking_id: booking.id,
    provider: provider.name,
    intent_id: intent.id,
    amount_cents: intent.amountCents,
    currency: intent.currency,
    created_at: new Date().toISOString(),
  });
  return usable(payments, log, booking, intent);
}

/** The client secret of a booking's intent that is still to be paid. */
async function usable(
  payments: Payments,
  log: FastifyBaseLogger,
  booking: Booking,
  intent: ProviderIntent,
): Promise<{ clientSecret: string }> {
  if (intent.status === 'succeeded' && mismatch(intent, booking) === null) {
    await settle(payments, log, booking, intent, systemActor('payments'));
    throw new HttpError(409, paymentErrors.alreadyPaid);
  }
  return { clientSecret: intent.clientSecret };
}

export interface ConfirmResult {
  /** 1 when this call marked the booking paid, 0 when it already was. */
  modifiedCount: 0 | 1;
  /** The booking as it now stands. */
  booking: Booking;
}

/**
 * `PATCH /api/booking/{id}`: the browser says the card payment `transactionId` succeeded. The
 * provider is asked, and only when it confirms that intent succeeded for this booking and its
 * price is the booking marked paid and the payment stored. Repeating it changes nothing.
 */
export async function confirmPayment(
  payments: Payments,
  log: FastifyBaseLogger,
  caller: CurrentUser,
  bookingId: string,
  request: { appointmentId: string; transactionId: string },
): Promise<ConfirmResult> {
  if (request.appointmentId !== bookingId) {
    throw new HttpError(400, paymentErrors.appointmentMismatch);
  }
  const booking = await ownBooking(payments, caller, bookingId);
  if (booking.paid_at !== null) return alreadyPaidWith(booking, request.transactionId);
  if (!INTENT_ID.test(request.transactionId)) {
    throw new HttpError(400, paymentErrors.noSuchPayment);
  }
  const intent = await payments.provider.retrieve(request.transactionId);
  if (!intent) throw new HttpError(400, paymentErrors.noSuchPayment);
  const refusal = mismatch(intent, booking);
  if (refusal) throw new HttpError(400, refusal);

  if (await settle(payments, log, booking, intent, patientActor(caller))) {
    const paid = await findBooking(payments.db, booking.id);
    if (paid) return { modifiedCount: 1, booking: paid };
  }
  // Paid meanwhile by a concurrent confirmation, or cancelled.
  const now = await findBooking(payments.db, booking.id);
  if (!now) throw new HttpError(404, paymentErrors.noSuchBooking);
  if (now.status === 'cancelled' && now.paid_at === null) {
    await refundOrphanedCharge(payments, log, intent, 'its booking was cancelled');
    throw new HttpError(409, paymentErrors.refundedCancelled);
  }
  return alreadyPaidWith(now, request.transactionId);
}

/** A paid booking confirmed again: fine with the same payment, a conflict with another. */
function alreadyPaidWith(booking: Booking, transactionId: string): ConfirmResult {
  if (booking.paid_at !== null && booking.transaction_id === transactionId) {
    return { modifiedCount: 0, booking };
  }
  throw new HttpError(409, paymentErrors.alreadyPaid);
}

/**
 * Makes sure no card charge can outlive a booking its patient is cancelling: the intent the
 * patient may have started paying is cancelled with the provider, so that no card can pay it
 * afterwards. Too late for that when the charge went through: the booking is then paid by it
 * ('paid'), or the provider is still deciding ('processing'); either way the booking stays.
 */
export async function releaseBookingPayment(
  payments: Payments,
  log: FastifyBaseLogger,
  booking: Booking,
): Promise<PaymentRelease> {
  const stored = await findStoredIntent(payments.db, booking.id);
  if (!stored || stored.provider !== payments.provider.name) return 'released';
  const intent = await payments.provider.cancel(stored.intent_id);
  if (!intent || intent.status === 'canceled') return 'released';
  if (intent.status !== 'succeeded') return 'processing';
  if (mismatch(intent, booking) !== null) {
    await refundOrphanedCharge(payments, log, intent, 'it does not match its booking');
    return 'released';
  }
  await settle(payments, log, booking, intent, systemActor('payments'));
  return 'paid';
}

/**
 * Gives back a charge that pays for nothing (its booking is gone or was cancelled before the
 * payment arrived) through the provider, and records the refund with the provider's id and in
 * the audit log, in one transaction (by the server itself unless `actor` says who asked). A
 * refund the provider refused is recorded nowhere.
 */
export async function refundOrphanedCharge(
  payments: Payments,
  log: FastifyBaseLogger,
  intent: ProviderIntent,
  why: string,
  actor: AuditActor = systemActor('payments'),
): Promise<void> {
  const refund = await payments.provider.refund(intent);
  const reason = `Refunded because ${why}`;
  const at = new Date();
  await payments.db.transaction().execute(async (tx) => {
    const recorded = await recordRefund(tx, {
      id: refund.id,
      booking_id: intent.bookingId ?? '',
      provider: payments.provider.name,
      intent_id: intent.id,
      amount_cents: refund.amountCents,
      currency: refund.currency,
      reason,
      created_at: at.toISOString(),
    });
    if (!recorded) return;
    await recordAudit(tx, {
      actor,
      action: 'booking.refunded',
      subject: intent.bookingId
        ? { type: 'booking', id: intent.bookingId }
        : { type: 'payment', id: intent.id },
      after: {
        refundId: refund.id,
        transactionId: intent.id,
        provider: payments.provider.name,
        amountCents: refund.amountCents,
        currency: refund.currency,
        reason,
      },
      at,
    });
  });
  log.warn(
    { transactionId: intent.id, bookingId: intent.bookingId, refundId: refund.id },
    `refunded a payment because ${why}`,
  );
}

/**
 * Marks the booking paid by a verified intent, records it in the audit log as `actor`'s doing
 * and mails the receipt. Answers whether this call did it; false when the booking was paid
 * already, whether before or by a concurrent call, or was cancelled.
 */
export async function settle(
  payments: Payments,
  log: FastifyBaseLogger,
  booking: Booking,
  intent: ProviderIntent,
  actor: AuditActor,
): Promise<boolean> {
  const paidAt = new Date();
  let changed: boolean;
  try {
    // The booking marked paid, its payment stored and the receipt queued: all or nothing.
    changed = await payments.db.transaction().execute(async (tx) => {
      if (!(await markBookingPaid(tx, booking.id, { transactionId: intent.id, paidAt }))) {
        return false;
      }
      await insertPayment(
        tx,
        booking.id,
        {
          provider: payments.provider.name,
          transactionId: intent.id,
          amountCents: intent.amountCents,
          currency: intent.currency,
        },
        paidAt,
      );
      await recordAudit(tx, {
        actor,
        action: 'booking.paid',
        subject: bookingSubject(booking),
        before: { paid: false },
        after: {
          paid: true,
          transactionId: intent.id,
          provider: payments.provider.name,
          amountCents: intent.amountCents,
          currency: intent.currency,
        },
        at: paidAt,
      });
      await payments.mail.add(tx, {
        kind: 'payment-receipt',
        to: booking.patient_email,
        booking: { ...bookingSummary(booking), priceDollars: centsToDollars(intent.amountCents) },
        transactionId: intent.id,
        amountDollars: centsToDollars(intent.amountCents),
      });
      return true;
    });
  } catch (error) {
    // A concurrent confirmation stored the payment first; the caller looks at what it stored.
    if (isUniqueViolation(error)) return false;
    throw error;
  }
  if (changed) {
    log.info({ bookingId: booking.id, transactionId: intent.id }, 'booking paid');
    payments.mail.wake();
  }
  return changed;
}

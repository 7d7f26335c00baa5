import { centsToDollars } from '@doctors-portal/contract';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { type AuditActor, bookingCancelled, bookingSubject, recordAudit } from '../audit/log.js';
import type { Booking, BookingStatus, Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import type { MailQueue } from '../mail/queue.js';
import { type ProviderRefund, RefundRefused } from '../payments/provider.js';
import { recordRefund } from '../payments/repository.js';
import { type Payments, releaseBookingPayment } from '../payments/service.js';
import type { BookingEvents } from './events.js';
import { bookingSummary } from './presenters.js';
import { cancelLiveBooking, findBooking } from './repository.js';

/** What cancelling a booking with its refund works with. */
export interface CancelDeps {
  db: Kysely<Database>;
  payments: Payments;
  mail: MailQueue;
  events: BookingEvents;
  log: FastifyBaseLogger;
}

/** The app's parts a cancellation works with, logging to `log`; the patient's rule adds the phone. */
export const cancelDepsOf = (
  app: FastifyInstance,
  log: FastifyBaseLogger,
): CancelDeps & { clinicPhone: string } => ({
  db: app.db,
  payments: app.payments,
  mail: app.mailQueue,
  events: app.bookingEvents,
  log,
  clinicPhone: app.config.clinic.phone,
});

/** Why a cancellation stopped, in the words of whoever asked for it (staff or the patient). */
export interface CancellationRefusals {
  noSuchBooking: string;
  paymentProcessing: string;
  noPaymentToRefund: string;
  refundRefused: (why: string) => string;
  changedMeanwhile: string;
  changedAfterRefund: (refundId: string) => string;
}

/** One cancellation: of which booking, by whom, why, and what to say when it cannot be done. */
export interface Cancelling {
  /** The live booking (booked or confirmed, not started) as the caller checked it. */
  booking: Booking;
  /** The account that cancels, written on the booking, and as the audit log names it. */
  by: string;
  actor: AuditActor;
  cancelledBy: 'clinic' | 'patient';
  /** On the booking, in the audit log and in the patient's mail. */
  reason: string;
  /** On the refund's row. */
  refundReason: string;
  refusals: CancellationRefusals;
}

export interface CancelOutcome {
  /** The booking as it now stands (cancelled). */
  booking: Booking;
  refund: ProviderRefund | null;
}

/**
 * What a booking may have become while its payment was released or refunded and still be
 * cancelled: booked or confirmed (a visit confirmed meanwhile is as cancellable as before, and its
 * refund is made). Arrived, seen, missed or cancelled since, it stays as it is (decision 037).
 */
const STILL_CANCELLABLE: readonly BookingStatus[] = ['booked', 'confirmed'];

/**
 * Cancels a live booking, refunding its payment through the provider: the one path of the
 * clinic's cancellation and of a patient's cancellation in time.
 *
 * 1. An unpaid booking's open payment is cancelled with the provider first, so that no card can
 *    pay it afterwards. When the charge went through meanwhile the booking is now paid, and goes
 *    on as a paid one; when the provider is still deciding, 409.
 * 2. A paid booking's charge is refunded through the provider (idempotent per payment, so a
 *    repeated cancellation gets the same refund). A refund the provider refuses leaves the
 *    booking booked and paid (409 with the provider's reason); a provider that cannot be reached
 *    throws a PaymentProviderError (502).
 * 3. In one transaction: the booking is cancelled (only if it is still in the status, and as paid
 *    or unpaid, as it was read: a booking paid meanwhile is never cancelled without its refund),
 *    its time is freed, the 'cancelled' event is told, the refund is recorded, both are written to
 *    the audit log, and the patient's mail (with the refund, and an .ics METHOD:CANCEL) is queued.
 *    When the booking changed before that, it stays as it is (409), and a refund already made is
 *    recorded all the same: no refund is ever left without its record.
 */
export async function cancelWithRefund(
  deps: CancelDeps,
  cancelling: Cancelling,
): Promise<CancelOutcome> {
  const { db, payments, log } = deps;
  const { by, actor, reason, refusals } = cancelling;
  let booking = cancelling.booking;
  const id = booking.id;

  if (booking.paid_at === null) {
    const payment = await releaseBookingPayment(payments, log, booking);
    if (payment === 'processing') throw new HttpError(409, refusals.paymentProcessing);
    if (payment === 'paid') {
      booking = (await findBooking(db, id)) ?? booking;
    }
  }

  let refund: ProviderRefund | null = null;
  let transactionId: string | null = null;
  if (booking.paid_at !== null) {
    transactionId = booking.transaction_id;
    const intent = transactionId ? await payments.provider.retrieve(transactionId) : null;
    if (!intent || intent.bookingId !== booking.id) {
      throw new HttpError(409, refusals.noPaymentToRefund);
    }
    try {
      refund = await payments.provider.refund(intent);
    } catch (error) {
      if (error instanceof RefundRefused) {
        log.warn({ bookingId: id, transactionId, err: error }, 'the provider refused a refund');
        throw new HttpError(409, refusals.refundRefused(error.message));
      }
      throw error;
    }
  }

  const live = booking;
  const at = new Date();
  /**
   * The refund's row and its audit entry, in the caller's transaction; neither when the refund
   * is on record already (the provider answers a repeated refund of a payment with the same one).
   */
  const recordRefundOf = async (tx: Kysely<Database>, made: ProviderRefund, intentId: string) => {
    const row = {
      id: made.id,
      booking_id: live.id,
      provider: payments.provider.name,
      intent_id: intentId,
      amount_cents: made.amountCents,
      currency: made.currency,
      reason: cancelling.refundReason,
      created_at: at.toISOString(),
    };
    if (!(await recordRefund(tx, row))) return;
    await recordAudit(tx, {
      actor,
      action: 'booking.refunded',
      subject: bookingSubject(live),
      after: {
        refundId: made.id,
        transactionId: intentId,
        provider: payments.provider.name,
        amountCents: made.amountCents,
        currency: made.currency,
        reason,
      },
      at,
    });
  };
  const cancelled = await db.transaction().execute(async (tx) => {
    const done = await cancelLiveBooking(tx, id, STILL_CANCELLABLE, live.paid_at !== null, {
      by,
      reason,
      at,
    });
    if (!done) return false;
    await deps.events.emit(tx, { kind: 'cancelled', booking: done });
    // `done` is the row as this transaction locked it: moved meanwhile, it names the new time.
    await recordAudit(tx, bookingCancelled(actor, done, reason, at));
    if (refund && transactionId) await recordRefundOf(tx, refund, transactionId);
    await deps.mail.add(tx, {
      kind: 'booking-cancellation',
      to: done.patient_email,
      booking: bookingSummary(done),
      reason,
      cancelledBy: cancelling.cancelledBy,
      refund: refund ? { id: refund.id, amountDollars: centsToDollars(refund.amountCents) } : null,
    });
    return true;
  });

  if (!cancelled) {
    if (refund && transactionId) {
      // The money went back although the booking stays: keep the refund on record all the same,
      // with its audit entry.
      await db.transaction().execute((tx) => recordRefundOf(tx, refund, transactionId));
      log.error(
        { bookingId: id, transactionId, refundId: refund.id },
        'refunded a booking that changed before its cancellation; it stays as it is',
      );
      throw new HttpError(409, refusals.changedAfterRefund(refund.id));
    }
    throw new HttpError(409, refusals.changedMeanwhile);
  }
  deps.mail.wake();
  log.info(
    { bookingId: id, refundId: refund?.id ?? null, by: cancelling.cancelledBy },
    refund ? 'cancelled and refunded a booking' : 'cancelled a booking',
  );
  const now = await findBooking(db, id);
  if (!now) throw new HttpError(404, refusals.noSuchBooking);
  return { booking: now, refund };
}

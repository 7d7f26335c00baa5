import {
  centsToDollars,
  clinicMayCancel,
  STATUS_LABELS,
  VISIT_STATUS_FROM,
  VISIT_STATUSES,
  type VisitStatus,
} from '@doctors-portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { adminActor, bookingSubject, recordAudit } from '../audit/log.js';
import type { CurrentUser } from '../auth/current-user.js';
import type { Booking, BookingStatus, Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import type { MailQueue } from '../mail/queue.js';
import { type ProviderRefund, RefundRefused } from '../payments/provider.js';
import { recordRefund } from '../payments/repository.js';
import { type Payments, releaseBookingPayment } from '../payments/service.js';
import { type ClinicMoment, hasStarted } from './clock.js';
import { bookingSummary } from './presenters.js';
import { cancelLiveBooking, findBooking, setVisitStatus } from './repository.js';

/**
 * What the clinic's staff do to a booking from the schedule: mark how the visit went (arrived,
 * completed, no-show), and cancel it with a reason, which frees the slot, refunds a paid booking
 * through the payment provider and tells the patient. Every change is written to the audit log
 * in its own transaction. Each refusal is an HttpError saying why.
 */

const label = (status: BookingStatus) => STATUS_LABELS[status].toLowerCase();

export const clinicErrors = {
  noSuchBooking: 'There is no such booking.',
  fromCancelled:
    'This booking is cancelled, so its status can no longer change. Book the patient again instead.',
  toCancelled:
    'A booking is cancelled with Cancel booking and a reason for the patient, not by setting its status.',
  notVisitStatus: (status: BookingStatus) =>
    `A visit can be marked arrived, completed or no-show; it cannot be set back to ${label(status)}.`,
  transition: (from: BookingStatus, to: VisitStatus) =>
    `A booking that is ${label(from)} cannot be marked ${label(to)}: ${
      to === 'completed'
        ? 'mark the patient arrived first.'
        : 'arrived and no-show are for visits that have not been marked yet.'
    }`,
  laterDay:
    'This visit is on a later day: mark it arrived, completed or no-show on the day of the visit.',
  alreadyCancelled: 'This booking is already cancelled.',
  notCancellable: (status: BookingStatus) =>
    `This booking is ${label(status)}, so it can no longer be cancelled.`,
  started:
    'This appointment has already started or passed, so it can no longer be cancelled: mark it completed or no-show instead.',
  paymentProcessing:
    "The patient's payment for this appointment is still being processed by the payment provider, so it cannot be cancelled yet. Please try again in a few minutes.",
  noPaymentToRefund:
    'This booking is paid, but the payment provider has no record of its payment, so it cannot be refunded here. It stays booked and paid: refund it with the provider first.',
  refundRefused: (why: string) =>
    `The payment provider refused to refund this booking's payment, so the booking stays booked and paid. The provider said: ${why}`,
  changedMeanwhile:
    'This booking changed while it was being cancelled, so it stays as it now is. Reload the schedule and try again.',
  changedAfterRefund: (refundId: string) =>
    `This booking changed while it was being cancelled, so it stays as it now is; its payment was refunded (refund id ${refundId}). Reload the schedule.`,
} as const;

/**
 * `PATCH /api/booking/{id}/status`: staff mark how a visit went. A booked or confirmed visit
 * becomes arrived or no-show, an arrived one completed, and a no-show who turns up late arrived
 * (`VISIT_STATUS_FROM` in the contract); only on or after the visit's day. Setting the status
 * it already has changes nothing. Answers the booking as it now stands.
 */
export async function changeVisitStatus(
  db: Kysely<Database>,
  moment: ClinicMoment,
  admin: CurrentUser,
  id: string,
  status: BookingStatus,
): Promise<{ booking: Booking; changed: boolean }> {
  const booking = await findBooking(db, id);
  if (!booking) throw new HttpError(404, clinicErrors.noSuchBooking);
  if (booking.status === status && status !== 'cancelled') return { booking, changed: false };
  if (status === 'cancelled') throw new HttpError(409, clinicErrors.toCancelled);
  if (booking.status === 'cancelled') throw new HttpError(409, clinicErrors.fromCancelled);
  const to = VISIT_STATUSES.find((visit) => visit === status);
  if (!to) throw new HttpError(409, clinicErrors.notVisitStatus(status));
  if (!VISIT_STATUS_FROM[to].includes(booking.status)) {
    throw new HttpError(409, clinicErrors.transition(booking.status, to));
  }
  if (booking.date > moment.today) throw new HttpError(409, clinicErrors.laterDay);

  const at = new Date();
  const changed = await db.transaction().execute(async (tx) => {
    if (!(await setVisitStatus(tx, id, to, [booking.status]))) return false;
    await recordAudit(tx, {
      actor: adminActor(admin),
      action: 'booking.status',
      subject: bookingSubject(booking),
      before: { status: booking.status },
      after: { status: to },
      at,
    });
    return true;
  });
  const now = await findBooking(db, id);
  if (!now) throw new HttpError(404, clinicErrors.noSuchBooking);
  // Another member of staff changed it first: say so unless they set the same status.
  if (!changed && now.status !== to) {
    throw new HttpError(409, clinicErrors.transition(now.status, to));
  }
  return { booking: now, changed };
}

export interface ClinicCancellation {
  booking: Booking;
  refund: ProviderRefund | null;
}

export interface ClinicCancelDeps {
  db: Kysely<Database>;
  payments: Payments;
  mail: MailQueue;
  log: FastifyBaseLogger;
}

/**
 * `POST /api/booking/{id}/cancel`: the clinic cancels a booked or confirmed visit that has not
 * started, for `reason`.
 *
 * 1. An unpaid booking's open payment is cancelled with the provider first, as when a patient
 *    cancels (`releaseBookingPayment`): no card can pay it afterwards. When the charge went
 *    through meanwhile the booking is now paid, and goes on as a paid one; when the provider is
 *    still deciding, 409.
 * 2. A paid booking's charge is refunded through the provider (idempotent per payment, so a
 *    repeated cancellation gets the same refund). A refund the provider refuses leaves the
 *    booking booked and paid (409 with the provider's reason); a provider that cannot be reached
 *    throws a PaymentProviderError (502).
 * 3. In one transaction: the booking is marked cancelled by the admin with the reason, its time
 *    units are deleted (the slot and the patient's time are free), the refund is recorded, the
 *    changes are written to the audit log, and the patient's mail (with an .ics METHOD:CANCEL of
 *    the confirmation's event) is queued.
 */
export async function cancelByClinic(
  deps: ClinicCancelDeps,
  moment: ClinicMoment,
  admin: CurrentUser,
  id: string,
  reason: string,
): Promise<ClinicCancellation> {
  const { db, payments, log } = deps;
  let booking = await findBooking(db, id);
  if (!booking) throw new HttpError(404, clinicErrors.noSuchBooking);
  if (booking.status === 'cancelled') throw new HttpError(409, clinicErrors.alreadyCancelled);
  if (!clinicMayCancel(booking.status)) {
    throw new HttpError(409, clinicErrors.notCancellable(booking.status));
  }
  if (hasStarted(booking.date, booking.slot, moment)) {
    throw new HttpError(409, clinicErrors.started);
  }

  if (booking.paid_at === null) {
    const payment = await releaseBookingPayment(payments, log, booking);
    if (payment === 'processing') throw new HttpError(409, clinicErrors.paymentProcessing);
    if (payment === 'paid') {
      booking = await findBooking(db, id);
      if (!booking) throw new HttpError(404, clinicErrors.noSuchBooking);
    }
  }

  let refund: ProviderRefund | null = null;
  let transactionId: string | null = null;
  if (booking.paid_at !== null) {
    transactionId = booking.transaction_id;
    const intent = transactionId ? await payments.provider.retrieve(transactionId) : null;
    if (!intent || intent.bookingId !== booking.id) {
      throw new HttpError(409, clinicErrors.noPaymentToRefund);
    }
    try {
      refund = await payments.provider.refund(intent);
    } catch (error) {
      if (error instanceof RefundRefused) {
        log.warn({ bookingId: id, transactionId, err: error }, 'the provider refused a refund');
        throw new HttpError(409, clinicErrors.refundRefused(error.message));
      }
      throw error;
    }
  }

  const live = booking;
  const at = new Date();
  const refundRow = (made: ProviderRefund, intentId: string) => ({
    id: made.id,
    booking_id: live.id,
    provider: payments.provider.name,
    intent_id: intentId,
    amount_cents: made.amountCents,
    currency: made.currency,
    reason: `Refunded because the clinic cancelled the booking: ${reason}`,
    created_at: at.toISOString(),
  });
  const actor = adminActor(admin);
  /**
   * The refund's row and its audit entry, in the caller's transaction; neither when the refund
   * is on record already (the provider answers a repeated refund of a payment with the same one).
   */
  const recordClinicRefund = async (
    tx: Kysely<Database>,
    made: ProviderRefund,
    intentId: string,
  ) => {
    if (!(await recordRefund(tx, refundRow(made, intentId)))) return;
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
    const done = await cancelLiveBooking(tx, id, [live.status], { by: admin.id, reason, at });
    if (!done) return false;
    await recordAudit(tx, {
      actor,
      action: 'booking.cancelled',
      subject: bookingSubject(live),
      before: { status: live.status },
      after: { status: 'cancelled', reason },
      at,
    });
    if (refund && transactionId) await recordClinicRefund(tx, refund, transactionId);
    await deps.mail.add(tx, {
      kind: 'booking-cancellation',
      to: live.patient_email,
      booking: bookingSummary(live),
      reason,
      refund: refund ? { id: refund.id, amountDollars: centsToDollars(refund.amountCents) } : null,
    });
    return true;
  });

  if (!cancelled) {
    if (refund && transactionId) {
      // The money went back although the booking stays: keep the refund on record all the same,
      // with its audit entry.
      await db.transaction().execute((tx) => recordClinicRefund(tx, refund, transactionId));
      log.error(
        { bookingId: id, transactionId, refundId: refund.id },
        'refunded a booking that changed before its cancellation; it stays as it is',
      );
      throw new HttpError(409, clinicErrors.changedAfterRefund(refund.id));
    }
    throw new HttpError(409, clinicErrors.changedMeanwhile);
  }
  deps.mail.wake();
  log.info(
    { bookingId: id, refundId: refund?.id ?? null },
    refund ? 'the clinic cancelled and refunded a booking' : 'the clinic cancelled a booking',
  );
  const now = await findBooking(db, id);
  if (!now) throw new HttpError(404, clinicErrors.noSuchBooking);
  return { booking: now, refund };
}

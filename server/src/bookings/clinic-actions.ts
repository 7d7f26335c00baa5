import {
  clinicMayCancel,
  STATUS_LABELS,
  VISIT_STATUS_FROM,
  VISIT_STATUSES,
  type VisitStatus,
} from '@doctors-portal/contract';
import type { Kysely } from 'kysely';
import { adminActor, bookingSubject, recordAudit } from '../audit/log.js';
import type { CurrentUser } from '../auth/current-user.js';
import type { Booking, BookingStatus, Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { type CancelDeps, type CancelOutcome, cancelWithRefund } from './cancel-with-refund.js';
import { type ClinicMoment, hasStarted } from './clock.js';
import { findBooking, setVisitStatus } from './repository.js';

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

export type ClinicCancellation = CancelOutcome;

/**
 * `POST /api/booking/{id}/cancel`: the clinic cancels a booked or confirmed visit that has not
 * started, for `reason`: its open payment is cancelled or its charge refunded through the
 * provider, then the booking is cancelled, its time freed and the patient mailed the reason
 * (`cancelWithRefund`, the patient's own cancellation's path too).
 */
export async function cancelByClinic(
  deps: CancelDeps,
  moment: ClinicMoment,
  admin: CurrentUser,
  id: string,
  reason: string,
): Promise<ClinicCancellation> {
  const booking = await findBooking(deps.db, id);
  if (!booking) throw new HttpError(404, clinicErrors.noSuchBooking);
  if (booking.status === 'cancelled') throw new HttpError(409, clinicErrors.alreadyCancelled);
  if (!clinicMayCancel(booking.status)) {
    throw new HttpError(409, clinicErrors.notCancellable(booking.status));
  }
  if (hasStarted(booking.date, booking.slot, moment)) {
    throw new HttpError(409, clinicErrors.started);
  }
  return cancelWithRefund(deps, {
    booking,
    by: admin.id,
    actor: adminActor(admin),
    cancelledBy: 'clinic',
    reason,
    refundReason: `Refunded because the clinic cancelled the booking: ${reason}`,
    refusals: clinicErrors,
  });
}

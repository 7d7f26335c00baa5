import {
  type Booking as ApiBooking,
  centsToDollars,
  type ScheduleEntry,
  slotStartMinutes,
} from '@doctors-portal/contract';
import type { Booking } from '../db/schema.js';
import type { BookingSummary } from '../mail/templates.js';
import { isCancellable } from './booking-rules.js';
import type { ClinicMoment } from './clock.js';
import type { ScheduledBooking } from './repository.js';

/** What the patient's and the schedule's views of a booking both show. */
function bookingFields(row: Booking) {
  return {
    _id: row.id,
    patientName: row.patient_name,
    patientMail: row.patient_email,
    date: row.date,
    slot: row.slot,
    treatment: row.treatment_name,
    treatmentId: row.treatment_id,
    price: centsToDollars(row.price_cents),
    phone: row.phone,
    age: row.age,
    paid: row.paid_at !== null,
    transactionId: row.transaction_id,
    status: row.status,
    doctor: row.doctor_id !== null ? { _id: row.doctor_id, name: row.doctor_name ?? '' } : null,
  };
}

/**
 * A stored booking as the API shows it (spec section 3), at `moment` in the clinic's day, with
 * the id of its refund if its payment was given back, cancellable by its patient under the
 * clinic's cancellation notice. Its date stays an ISO date: the response schema writes it in the
 * spec's medium format.
 */
export function toApiBooking(
  row: Booking,
  moment: ClinicMoment,
  refundId: string | null = null,
  cancellationNoticeHours = 0,
): ApiBooking {
  return {
    ...bookingFields(row),
    cancellable: isCancellable(row, moment, cancellationNoticeHours),
    // The clinic's reason is for the patient; the patient's own cancellations are not listed.
    cancelReason: row.status === 'cancelled' ? row.cancel_reason : null,
    refund: refundId ? { id: refundId } : null,
  };
}

/** A booking on the clinic's schedule: the booking, its patient's no-shows, its cancellation. */
export function toScheduleEntry(row: ScheduledBooking): ScheduleEntry {
  return {
    ...bookingFields(row),
    patientId: row.patient_id,
    noShows: row.no_shows,
    cancelledAt: row.cancelled_at,
    cancelledBy:
      row.status !== 'cancelled'
        ? null
        : row.cancelled_by !== null && row.cancelled_by === row.patient_id
          ? 'patient'
          : 'clinic',
    cancelReason: row.cancel_reason,
    refund: row.refund_id ? { id: row.refund_id } : null,
  };
}

/** A stored booking as the patient's mail tells of it (the mail writes the date out). */
export function bookingSummary(row: Booking): BookingSummary {
  return {
    id: row.id,
    patientName: row.patient_name,
    treatment: row.treatment_name,
    isoDate: row.date,
    slot: row.slot,
    priceDollars: centsToDollars(row.price_cents),
    doctorName: row.doctor_name,
    sequence: row.sequence,
  };
}

/** By date, then by the slot's start time (labels do not sort as text), then by booking time. */
export function inAppointmentOrder<T extends Pick<Booking, 'date' | 'slot' | 'created_at'>>(
  rows: T[],
): T[] {
  // Each label read once rather than at every comparison (a day repeats a few dozen labels);
  // ISO dates and times sort as text.
  const starts = new Map<string, number>();
  const startOf = (slot: string) => {
    let start = starts.get(slot);
    if (start === undefined) {
      start = slotStartMinutes(slot) ?? Number.MAX_SAFE_INTEGER;
      starts.set(slot, start);
    }
    return start;
  };
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows
    .map((row) => ({ row, start: startOf(row.slot) }))
    .sort(
      (a, b) =>
        text(a.row.date, b.row.date) ||
        a.start - b.start ||
        text(a.row.created_at, b.row.created_at),
    )
    .map(({ row }) => row);
}

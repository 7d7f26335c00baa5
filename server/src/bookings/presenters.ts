import {
  type Booking as ApiBooking,
  centsToDollars,
  slotStartMinutes,
} from '@doctors-portal/contract';
import type { Booking } from '../db/schema.js';
import type { BookingSummary } from '../mail/templates.js';
import { isCancellable } from './booking-rules.js';
import type { ClinicMoment } from './clock.js';

/**
 * A stored booking as the API shows it (spec section 3), at `moment` in the clinic's day. Its
 * date stays an ISO date: the response schema writes it in the spec's medium format.
 */
export function toApiBooking(row: Booking, moment: ClinicMoment): ApiBooking {
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
    cancellable: isCancellable(row, moment),
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
  };
}

/** By date, then by the slot's start time (labels do not sort as text), then by booking time. */
export function inAppointmentOrder(rows: Booking[]): Booking[] {
  const start = (row: Booking) => slotStartMinutes(row.slot) ?? Number.MAX_SAFE_INTEGER;
  return rows.toSorted(
    (a, b) =>
      a.date.localeCompare(b.date) ||
      start(a) - start(b) ||
      a.created_at.localeCompare(b.created_at),
  );
}

import {
  type Booking as ApiBooking,
  type BookingDoctor,
  type bookingSchema,
  centsToDollars,
  formatMediumDate,
  type ScheduleEntry,
  type scheduleEntrySchema,
  type scheduleSchema,
  slotStartMinutes,
} from '@doctors-portal/contract';
import type { z } from 'zod';
import type { Booking } from '../db/schema.js';
import type { BookingSummary } from '../mail/templates.js';
import { isCancellable } from './booking-rules.js';
import type { ClinicMoment } from './clock.js';
import {
  CANCELLED_BY_FORMER_PATIENT,
  type PresentedBooking,
  type ScheduledBooking,
} from './repository.js';

/**
 * What the patient's and the schedule's views of a booking both show, in the response schemas'
 * order, in two parts: between them the patient's view puts whether the booking may be
 * cancelled. Each view gives the date as it holds it (an ISO date, or the medium text on the
 * wire) and the cancellation reason and refund it shows. A view joins the parts and adds its
 * own fields with `Object.assign`, not by spreading them into a new object: the schedule presents
 * hundreds of rows a request, and V8 copies and serialises a spread copy of these fields several
 * times slower (docs/performance.md).
 */
function bookingHead<D extends string>(row: PresentedBooking, date: D) {
  return {
    _id: row.id,
    patientName: row.patient_name,
    patientMail: row.patient_email,
    date,
    slot: row.slot,
    treatment: row.treatment_name,
    treatmentId: row.treatment_id,
    price: centsToDollars(row.price_cents),
    phone: row.phone,
    age: row.age,
    paid: row.paid_at !== null,
    transactionId: row.transaction_id,
    status: row.status,
  };
}

/** The doctor a booking is with, as every booking the API answers names them; null without one. */
export function bookingDoctor(
  row: Pick<Booking, 'doctor_id' | 'doctor_name'>,
): BookingDoctor | null {
  return row.doctor_id !== null ? { _id: row.doctor_id, name: row.doctor_name ?? '' } : null;
}

/** The second part of what both views show (see bookingHead). */
function bookingTail(row: PresentedBooking, cancelReason: string | null, refundId: string | null) {
  return {
    cancelReason,
    refund: refundId ? { id: refundId } : null,
    doctor: bookingDoctor(row),
  };
}

/**
 * A stored booking as the API shows it (spec section 3), at `moment` in the clinic's day, with
 * the id of its refund if its payment was given back, cancellable by its patient under the
 * clinic's cancellation notice. Its date stays an ISO date: the response schema writes it in the
 * spec's medium format.
 */
export function toApiBooking(
  row: PresentedBooking,
  moment: ClinicMoment,
  cancellationNoticeHours: number,
  refundId: string | null = null,
): ApiBooking {
  return apiBookingWith(row, row.date, moment, refundId, cancellationNoticeHours);
}

/** The patient's view of a booking with its date as given: an ISO date, or the medium text. */
function apiBookingWith<D extends string>(
  row: PresentedBooking,
  date: D,
  moment: ClinicMoment,
  refundId: string | null,
  cancellationNoticeHours: number,
) {
  // The clinic's reason is for the patient; the patient's own cancellation has none to show.
  const reason =
    row.status === 'cancelled' && row.cancelled_by !== row.patient_id ? row.cancel_reason : null;
  return Object.assign(
    bookingHead(row, date),
    { cancellable: isCancellable(row, moment, cancellationNoticeHours) },
    bookingTail(row, reason, refundId),
  );
}

/**
 * The answer of `GET /api/booking` as JSON text: byte for byte what its response schema (an
 * array of `bookingSchema`, encoded by fastify-type-provider-zod, then `JSON.stringify`) writes
 * for the same bookings (my-bookings-json.test.ts holds the two to the same text), without
 * walking the schema for every field of every booking. `rows` are in appointment order.
 */
export function patientBookingsJson(
  rows: readonly PresentedBooking[],
  moment: ClinicMoment,
  refunds: ReadonlyMap<string, string>,
  cancellationNoticeHours: number,
): string {
  const bookings: ApiBookingText[] = rows.map((row) =>
    apiBookingWith(
      row,
      // The stored date is an IsoDate: formatted as the schema's codec would, without running
      // the codec's checks for every booking (a tenth of this route's CPU).
      formatMediumDate(row.date),
      moment,
      refunds.get(row.id) ?? null,
      cancellationNoticeHours,
    ),
  );
  return JSON.stringify(bookings);
}

/** How a cancelled booking's cancellation is shown: by its own patient, or by the clinic. */
function cancelledBy(
  row: Pick<Booking, 'status' | 'cancelled_by' | 'patient_id'>,
): ScheduleEntry['cancelledBy'] {
  if (row.status !== 'cancelled') return null;
  const byPatient =
    row.cancelled_by !== null &&
    (row.cancelled_by === row.patient_id || row.cancelled_by === CANCELLED_BY_FORMER_PATIENT);
  return byPatient ? 'patient' : 'clinic';
}

/** A booking on the clinic's schedule: the booking, its patient's no-shows, its cancellation. */
export function toScheduleEntry(row: ScheduledBooking): ScheduleEntry {
  return scheduleEntryWith(row, row.date);
}

/** A schedule entry with its date as given: an ISO date, or the medium text on the wire. */
function scheduleEntryWith<D extends string>(row: ScheduledBooking, date: D) {
  return Object.assign(bookingHead(row, date), bookingTail(row, row.cancel_reason, row.refund_id), {
    patientId: row.patient_id,
    noShows: row.no_shows,
    cancelledAt: row.cancelled_at,
    cancelledBy: cancelledBy(row),
  });
}

/**
 * The answer of `GET /api/schedule` as JSON text: byte for byte what its response schema
 * (`scheduleSchema`, encoded by fastify-type-provider-zod, then `JSON.stringify`) writes for the
 * same bookings (schedule-json.test.ts holds the two to the same text), without walking the
 * schema for every field of every row. Each entry is written with its fields in the schema's
 * order, and its date in the medium format as the schema's codec writes it, once per date of the
 * range rather than once per row. `rows` are in appointment order.
 */
export function scheduleJson(
  answer: { from: string; to: string; today: string },
  rows: readonly ScheduledBooking[],
): string {
  const medium = new Map<string, string>();
  const bookings: ScheduleEntryText[] = new Array(rows.length);
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index] as ScheduledBooking;
    let date = medium.get(row.date);
    if (date === undefined) {
      date = formatMediumDate(row.date);
      medium.set(row.date, date);
    }
    bookings[index] = scheduleEntryWith(row, date);
  }
  const text: ScheduleText = { from: answer.from, to: answer.to, today: answer.today, bookings };
  return JSON.stringify(text);
}

/** A booking as it is written on the wire (its date in the medium format). */
type ApiBookingText = z.input<typeof bookingSchema>;
/** A schedule entry as it is written on the wire (its date in the medium format). */
type ScheduleEntryText = z.input<typeof scheduleEntrySchema>;
type ScheduleText = z.input<typeof scheduleSchema>;

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

import { randomUUID } from 'node:crypto';
import {
  type Booking as ApiBooking,
  type AvailableTreatment,
  type bookingRequestSchema,
  centsToDollars,
  formatMediumDate,
  type IsoDate,
  parseIsoDate,
  parseMediumDate,
  slotStartMinutes,
} from '@doctors-portal/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { CurrentUser } from '../auth/current-user.js';
import type { Transact } from '../db/group-commit.js';
import type { Booking, Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import type { BookingSummary } from '../mail/templates.js';
import { cachedTreatments } from '../treatments/repository.js';
import { type ClinicMoment, hasStarted } from './clock.js';
import {
  bookedSlotsOn,
  brokenBookingRule,
  deleteUnpaidBooking,
  findBooking,
  findPatientBooking,
  findTreatment,
  insertBooking,
  slotKey,
} from './repository.js';

/** The answers a patient can act on; the spec leaves these situations unworded. */
export const bookingErrors = {
  badDate: "Provide a real date in the form 'Jan 5, 2022'",
  pastDate: 'You cannot book a date in the past',
  unknownTreatment: 'We do not offer that treatment. Please pick one from the list.',
  slotNotOffered: 'That slot is not offered for this treatment',
  slotStarted: 'That slot has already started today. Please pick a later one.',
  notYourMail: 'You can only see your own appointments.',
  noSuchBooking: 'There is no such booking.',
  notYourBooking: 'You can only cancel your own appointments.',
  paid: 'A paid booking cannot be cancelled online; please call the clinic.',
  started: 'This appointment has already started or passed, so it can no longer be cancelled.',
} as const;

export type BookingRequestBody = z.output<typeof bookingRequestSchema>;

/** A medium date the request schema has already checked, as an ISO date. */
export function isoDateOf(medium: string): IsoDate {
  const date = parseMediumDate(medium);
  if (!date) throw new HttpError(400, bookingErrors.badDate);
  return date;
}

/** A stored booking as the API shows it (spec section 3). */
export function toApiBooking(row: Booking): ApiBooking {
  const date = parseIsoDate(row.date);
  return {
    _id: row.id,
    patientName: row.patient_name,
    patientMail: row.patient_email,
    date: date ? formatMediumDate(date) : row.date,
    slot: row.slot,
    treatment: row.treatment_name,
    treatmentId: row.treatment_id,
    price: centsToDollars(row.price_cents),
    phone: row.phone,
    age: row.age,
    paid: row.paid_at !== null,
    transactionId: row.transaction_id,
  };
}

/** A stored booking as the patient's mail tells of it. */
export function bookingSummary(row: Booking): BookingSummary {
  const { date, slot, treatment, price } = toApiBooking(row);
  return {
    id: row.id,
    patientName: row.patient_name,
    treatment,
    date,
    isoDate: row.date,
    slot,
    priceDollars: price,
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

/**
 * Every treatment in display order with the slots still bookable on `date`: booked slots,
 * slots of past dates and today's slots that have started are left out.
 */
export async function availableOn(
  db: Kysely<Database>,
  date: IsoDate,
  moment: ClinicMoment,
): Promise<AvailableTreatment[]> {
  const past = date < moment.today;
  const [treatments, booked] = await Promise.all([
    cachedTreatments(db),
    past ? new Set<string>() : bookedSlotsOn(db, date),
  ]);
  return treatments.map((treatment) => ({
    _id: treatment.id,
    name: treatment.name,
    slots: past
      ? []
      : treatment.slots.filter(
          (slot) => !booked.has(slotKey(treatment.id, slot)) && !hasStarted(date, slot, moment),
        ),
    price: centsToDollars(treatment.priceCents),
  }));
}

export type BookingOutcome =
  | { booked: true; booking: Booking }
  | { booked: false; rule: 'patient'; existing: Booking }
  | { booked: false; rule: 'slot' };

/**
 * Books a slot for the signed-in patient. The server's records decide everything but the
 * treatment, date, slot, phone and age: the patient's name and email come from the session,
 * the treatment's name and price from the treatment. The unique indexes decide races; when one
 * refuses the insert, the patient's own booking for that treatment and date (if any) is the
 * answer, otherwise somebody else holds the slot. The insert runs through `transact`, and
 * `whileBooking` in the same transaction once the booking is stored (the confirmation mail is
 * queued there).
 */
export async function bookSlot(
  db: Kysely<Database>,
  transact: Transact,
  moment: ClinicMoment,
  patient: CurrentUser,
  request: BookingRequestBody,
  whileBooking: (tx: Kysely<Database>, booking: Booking) => Promise<void>,
): Promise<BookingOutcome> {
  const date = isoDateOf(request.date);
  if (date < moment.today) throw new HttpError(400, bookingErrors.pastDate);
  const treatment = await findTreatment(db, request.treatmentId);
  if (!treatment) throw new HttpError(400, bookingErrors.unknownTreatment);
  if (!treatment.slots.includes(request.slot)) {
    throw new HttpError(400, bookingErrors.slotNotOffered);
  }
  if (hasStarted(date, request.slot, moment)) throw new HttpError(400, bookingErrors.slotStarted);

  const booking: Booking = {
    id: randomUUID(),
    treatment_id: treatment.id,
    treatment_name: treatment.name,
    price_cents: treatment.priceCents,
    date,
    slot: request.slot,
    patient_id: patient.id,
    patient_email: patient.email,
    patient_name: patient.name,
    phone: request.phone.trim(),
    age: request.age,
    created_at: new Date().toISOString(),
    paid_at: null,
    transaction_id: null,
  };
  // A patient conflict whose booking is cancelled before it can be read is retried once.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await transact(async (tx) => {
        await insertBooking(tx, booking);
        await whileBooking(tx, booking);
      });
      return { booked: true, booking };
    } catch (error) {
      const rule = brokenBookingRule(error);
      if (!rule) throw error;
      const existing = await findPatientBooking(db, patient.email, treatment.id, date);
      if (existing) return { booked: false, rule: 'patient', existing };
      if (rule === 'slot') return { booked: false, rule: 'slot' };
      if (attempt === 2) throw error;
    }
  }
}

/**
 * Cancels one of the caller's own unpaid bookings that has not started yet, freeing its slot.
 * Throws an HttpError saying why otherwise.
 */
export async function cancelBooking(
  db: Kysely<Database>,
  moment: ClinicMoment,
  caller: CurrentUser,
  id: string,
): Promise<void> {
  const booking = await findBooking(db, id);
  if (!booking) throw new HttpError(404, bookingErrors.noSuchBooking);
  if (booking.patient_email.toLowerCase() !== caller.email.toLowerCase()) {
    throw new HttpError(403, bookingErrors.notYourBooking);
  }
  if (booking.paid_at !== null) throw new HttpError(409, bookingErrors.paid);
  const date = parseIsoDate(booking.date);
  if (!date || hasStarted(date, booking.slot, moment)) {
    throw new HttpError(409, bookingErrors.started);
  }
  if (await deleteUnpaidBooking(db, id)) return;
  // Paid or cancelled between the look-up and the delete.
  const now = await findBooking(db, id);
  if (now?.paid_at) throw new HttpError(409, bookingErrors.paid);
  throw new HttpError(404, bookingErrors.noSuchBooking);
}

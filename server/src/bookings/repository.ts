import type { Insertable, Kysely } from 'kysely';
import type { Booking, BookingTable, Database } from '../db/schema.js';
import type { TreatmentRecord } from '../treatments/repository.js';

export type NewBooking = Insertable<BookingTable>;

/** One treatment with its slots, or undefined when the clinic has no treatment by that id. */
export async function findTreatment(
  db: Kysely<Database>,
  id: string,
): Promise<TreatmentRecord | undefined> {
  const row = await db
    .selectFrom('treatment')
    .select(['id', 'name', 'price_cents', 'slots'])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      name: row.name,
      priceCents: row.price_cents,
      slots: JSON.parse(row.slots) as string[],
    }
  );
}

/**
 * The slots taken on one date, as 'treatmentId\u0000slot' keys. Reads only that date's entries
 * of the (date, treatment_id, slot) unique index, so its cost does not grow with the bookings
 * stored for other dates.
 */
export async function bookedSlotsOn(db: Kysely<Database>, date: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('booking')
    .select(['treatment_id', 'slot'])
    .where('date', '=', date)
    .execute();
  return new Set(rows.map((row) => slotKey(row.treatment_id, row.slot)));
}

export function slotKey(treatmentId: string, slot: string): string {
  return `${treatmentId}\u0000${slot}`;
}

export async function insertBooking(db: Kysely<Database>, booking: NewBooking): Promise<void> {
  await db.insertInto('booking').values(booking).execute();
}

/** The booking a patient holds for a treatment on a date (at most one, by a unique index). */
export async function findPatientBooking(
  db: Kysely<Database>,
  patientEmail: string,
  treatmentId: string,
  date: string,
): Promise<Booking | undefined> {
  return db
    .selectFrom('booking')
    .selectAll()
    .where('patient_email', '=', patientEmail)
    .where('treatment_id', '=', treatmentId)
    .where('date', '=', date)
    .executeTakeFirst();
}

/** A patient's bookings by date; the caller orders slots within a day by their start time. */
export async function listPatientBookings(
  db: Kysely<Database>,
  patientEmail: string,
): Promise<Booking[]> {
  return db
    .selectFrom('booking')
    .selectAll()
    .where('patient_email', '=', patientEmail)
    .orderBy('date')
    .orderBy('created_at')
    .execute();
}

export async function findBooking(db: Kysely<Database>, id: string): Promise<Booking | undefined> {
  return db.selectFrom('booking').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Deletes a booking unless it has been paid meanwhile; answers whether a row went. */
export async function deleteUnpaidBooking(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('booking')
    .where('id', '=', id)
    .where('paid_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Which booking rule a unique violation broke: see the indexes in migrations/0001_initial.ts. */
export type BookingRule = 'slot' | 'patient';

const RULE_COLUMNS: Record<BookingRule, string> = {
  slot: 'date,slot,treatment_id',
  patient: 'date,patient_email,treatment_id',
};
const RULE_INDEXES: Record<string, BookingRule> = {
  booking_slot_unique: 'slot',
  booking_patient_unique: 'patient',
};

/**
 * The booking rule behind a failed insert, or null when the error is not the violation of one
 * of them. PostgreSQL names the index (code 23505, `constraint`); SQLite names the columns
 * ('UNIQUE constraint failed: booking.date, booking.treatment_id, booking.slot').
 */
export function brokenBookingRule(error: unknown): BookingRule | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, constraint, message } = error as {
    code?: unknown;
    constraint?: unknown;
    message?: unknown;
  };
  if (code === '23505') {
    return typeof constraint === 'string' ? (RULE_INDEXES[constraint] ?? null) : null;
  }
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof message === 'string') {
    const columns = message
      .replace(/^UNIQUE constraint failed: /, '')
      .split(',')
      .map((column) => column.trim().replace(/^booking\./, ''))
      .sort()
      .join(',');
    if (columns === RULE_COLUMNS.slot) return 'slot';
    if (columns === RULE_COLUMNS.patient) return 'patient';
  }
  return null;
}

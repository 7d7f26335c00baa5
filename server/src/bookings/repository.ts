import { addDays, type IsoDate, LAST_DATE, slotUnits } from '@doctors-portal/contract';
import {
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type Kysely,
  PostgresAdapter,
  type SqlBool,
  sql,
} from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/sqlite';
import { type AuditEntry, recordAudit } from '../audit/log.js';
import { compiledInsert, compiledInsertRows, compiledOnce } from '../db/compiled-once.js';
import { orderedId } from '../db/ordered-id.js';
import type { Booking, BookingStatus, BookingTable, Database } from '../db/schema.js';
import { uniqueViolation } from '../db/unique-violation.js';
import { refundOfBooking } from '../payments/repository.js';

/** What a new booking is made of; the rest of its row starts the same for every booking. */
type BookingFacts = Pick<
  Booking,
  | 'treatment_id'
  | 'treatment_name'
  | 'price_cents'
  | 'date'
  | 'slot'
  | 'patient_id'
  | 'patient_email'
  | 'patient_name'
  | 'phone'
  | 'age'
> &
  Partial<Pick<Booking, 'doctor_id' | 'doctor_name'>>;

/** A booking's row as it is first stored: booked now, unpaid, not cancelled. */
export function newBookingRow(fields: BookingFacts): Booking {
  return {
    id: orderedId(),
    doctor_id: null,
    doctor_name: null,
    ...fields,
    created_at: new Date().toISOString(),
    paid_at: null,
    transaction_id: null,
    status: 'booked',
    cancelled_at: null,
    cancelled_by: null,
    cancel_reason: null,
    sequence: 0,
    moved_late_at: null,
  };
}

/**
 * The `booking` table and the time units its live bookings hold (`booking_unit`): every read
 * and write of them is here, the patient's side (booking, paying, cancelling) and the clinic's
 * (the schedule of a range of dates, a visit's status, the clinic's cancellation).
 */
export type NewBooking = Insertable<BookingTable>;

/**
 * A booking status as the booking queries name it: written into their SQL, never bound. The
 * table's partial indexes (live bookings, cancelled ones, no-shows) apply by the status a query
 * names. Given a bound one, SQLite works out again at every call whether they apply, preparing
 * the statement afresh each time (the slot's read 11 → 3.6 µs; docs/performance.md), and a
 * prepared statement's generic plan on PostgreSQL cannot use them.
 */
export const statusNamed = (status: BookingStatus) => sql.lit(status);

/** `statusNamed` for each of `statuses`, for an `in` list. */
export const statusesNamed = (statuses: readonly BookingStatus[]) => statuses.map(statusNamed);

/**
 * Of the live bookings, those that hold their treatment's one chair: made without a doctor, or
 * of a treatment no doctor performs any longer (made while one did), whose slot a booking without
 * a doctor must not take again.
 */
const holdsTheChair = (eb: ExpressionBuilder<Database, 'booking'>) =>
  eb.or([
    eb('booking.doctor_id', 'is', null),
    eb.not(
      eb.exists(
        eb
          .selectFrom('doctor_treatment')
          .select('doctor_treatment.doctor_id')
          .whereRef('doctor_treatment.treatment_id', '=', 'booking.treatment_id'),
      ),
    ),
  ]);

/**
 * The slots whose chair is taken on one date (`holdsTheChair`), as 'treatmentId\u0000slot' keys.
 * Reads only that date's entries of the (date, treatment_id, slot, doctor) unique index over live
 * bookings, so its cost does not grow with the bookings stored for other dates.
 */
export async function bookedSlotsOn(db: Kysely<Database>, date: IsoDate): Promise<Set<string>> {
  const rows = await db
    .selectFrom('booking')
    .select(['treatment_id', 'slot'])
    .where('date', '=', date)
    .where('status', '<>', statusNamed('cancelled'))
    .where(holdsTheChair)
    .execute();
  return new Set(rows.map((row) => slotKey(row.treatment_id, row.slot)));
}

/**
 * Whether a live booking of a treatment holds its slot on a date, made with a doctor (which a
 * booking without one must not join: made while a doctor performed the treatment) or without one
 * (which a booking with a doctor must not join: made before the treatment had doctors).
 * `exceptId`: the booking being moved.
 */
export async function slotHeld(
  tx: Kysely<Database>,
  at: { date: IsoDate; treatmentId: string; slot: string; exceptId?: string },
  by: 'with doctor' | 'without doctor',
): Promise<boolean> {
  const { date, treatmentId, slot, exceptId = NO_BOOKING } = at;
  return (await chairHeld[by](tx, date, treatmentId, slot, exceptId)).length > 0;
}

/** No booking's id: what `slotHeld` excepts when no booking is being moved. */
const NO_BOOKING = '';

/** The live bookings that hold a slot's chair (`slotHeld`), by what holds it: compiled once. */
const chairHeldBy = (by: 'with doctor' | 'without doctor') =>
  compiledOnce(
    (tx: Kysely<Database>, date: IsoDate, treatmentId: string, slot: string, exceptId: string) =>
      tx
        .selectFrom('booking')
        .select('id')
        .where('status', '<>', statusNamed('cancelled'))
        .where('doctor_id', by === 'with doctor' ? 'is not' : 'is', null)
        .where('date', '=', date)
        .where('treatment_id', '=', treatmentId)
        .where('slot', '=', slot)
        .where('id', '<>', exceptId)
        .limit(1),
  );
const chairHeld = {
  'with doctor': chairHeldBy('with doctor'),
  'without doctor': chairHeldBy('without doctor'),
};

export function slotKey(treatmentId: string, slot: string): string {
  return `${treatmentId}\u0000${slot}`;
}

/**
 * Every doctor's time units held on `date`, by doctor: one read of the date's entries of the
 * (date, doctor, unit) unique index (migrations/0009), whatever the number of doctors.
 */
export async function doctorUnitsOn(
  db: Kysely<Database>,
  date: IsoDate,
): Promise<Map<string, Set<number>>> {
  const rows = await doctorUnitsQuery(db, date).execute();
  const units = new Map<string, Set<number>>();
  for (const row of rows) {
    const held = units.get(row.doctor_id) ?? new Set<number>();
    held.add(row.unit);
    units.set(row.doctor_id, held);
  }
  return units;
}

/** The query behind `doctorUnitsOn`; exported for the test that reads its plan on both engines. */
export function doctorUnitsQuery(db: Kysely<Database>, date: IsoDate) {
  return db.selectFrom('doctor_unit').select(['doctor_id', 'unit']).where('date', '=', date);
}

/**
 * For the days from `from` to `to`, what `bookedSlotsOn` and `doctorUnitsOn` read for one day:
 * the slots whose chair is taken ('treatmentId\u0000slot' keys) and every doctor's held time
 * units, by date. Two reads of the range's entries of the same date-leading indexes, however many
 * days it spans (the month's availability, `GET /api/available/month`).
 */
export async function heldTimeBetween(
  db: Kysely<Database>,
  from: IsoDate,
  to: IsoDate,
): Promise<Map<IsoDate, { booked: Set<string>; units: Map<string, Set<number>> }>> {
  const [bookings, units] = await Promise.all([
    db
      .selectFrom('booking')
      .select(['date', 'treatment_id', 'slot'])
      .where('date', '>=', from)
      .where('date', '<=', to)
      .where('status', '<>', statusNamed('cancelled'))
      .where(holdsTheChair)
      .execute(),
    db
      .selectFrom('doctor_unit')
      .select(['date', 'doctor_id', 'unit'])
      .where('date', '>=', from)
      .where('date', '<=', to)
      .execute(),
  ]);
  const days = new Map<IsoDate, { booked: Set<string>; units: Map<string, Set<number>> }>();
  const dayOf = (date: string) => {
    let day = days.get(date as IsoDate);
    if (!day) {
      day = { booked: new Set(), units: new Map() };
      days.set(date as IsoDate, day);
    }
    return day;
  };
  for (const row of bookings) dayOf(row.date).booked.add(slotKey(row.treatment_id, row.slot));
  for (const row of units) {
    const held = dayOf(row.date).units;
    const doctor = held.get(row.doctor_id) ?? new Set<number>();
    doctor.add(row.unit);
    held.set(row.doctor_id, doctor);
  }
  return days;
}

/** The doctors who hold any time of `slot` on `date` (through the same index). */
export async function doctorsBusyDuring(
  db: Kysely<Database>,
  date: IsoDate,
  slot: string,
): Promise<Set<string>> {
  const units = slotUnits(slot);
  const [first] = units;
  if (first === undefined) return new Set();
  const rows = await doctorsHoldingUnits(db, date, first, first + units.length - 1);
  return new Set(rows.map((row) => row.doctor_id));
}

/** The doctors holding any of a day's units from `first` to `last`: compiled once. */
const doctorsHoldingUnits = compiledOnce(
  (db: Kysely<Database>, date: IsoDate, first: number, last: number) =>
    db
      .selectFrom('doctor_unit')
      .select('doctor_id')
      .distinct()
      .where('date', '=', date)
      .where('unit', '>=', first)
      .where('unit', '<=', last),
);

/**
 * Stores a booking with the time units it holds for its patient and, when it is with a doctor,
 * for the doctor. A unique index refuses it when the slot is taken (for the doctor, when there is
 * one), the patient holds the treatment that day, any of its units (see migrations/0004) is the
 * patient's already, or the doctor's (migrations/0009): `brokenBookingRule` says which.
 */
export async function insertBooking(tx: Kysely<Database>, booking: Booking): Promise<void> {
  await insertBookingRow(tx, booking);
  await insertUnits(tx, booking);
}

/** Every column of a booking: compiled once, as every booking is stored this way. */
const insertBookingRow = compiledInsert('booking', [
  'id',
  'treatment_id',
  'treatment_name',
  'price_cents',
  'date',
  'slot',
  'patient_id',
  'patient_email',
  'patient_name',
  'phone',
  'age',
  'created_at',
  'paid_at',
  'transaction_id',
  'status',
  'cancelled_at',
  'cancelled_by',
  'cancel_reason',
  'doctor_id',
  'doctor_name',
  'sequence',
]);

/** The time units a live booking holds: its patient's and its doctor's (see `insertBooking`). */
async function insertUnits(
  tx: Kysely<Database>,
  booking: Pick<NewBooking, 'id' | 'date' | 'slot' | 'patient_id' | 'doctor_id'>,
): Promise<void> {
  const units = slotUnits(booking.slot);
  const { id, date, patient_id: patientId, doctor_id: doctorId } = booking;
  if (patientId) {
    await insertPatientUnits(
      tx,
      units.map((unit) => ({ booking_id: id, patient_id: patientId, date, unit })),
    );
  }
  if (doctorId) {
    await insertDoctorUnits(
      tx,
      units.map((unit) => ({ booking_id: id, doctor_id: doctorId, date, unit })),
    );
  }
}

/** Compiled once per number of units, as every booking stores its units this way. */
const insertPatientUnits = compiledInsertRows('booking_unit', [
  'booking_id',
  'patient_id',
  'date',
  'unit',
]);
const insertDoctorUnits = compiledInsertRows('doctor_unit', [
  'booking_id',
  'doctor_id',
  'date',
  'unit',
]);

/**
 * The live bookings with a doctor from the clinic's `today` on that have not been seen yet
 * (booked, confirmed or arrived), by date: what keeps the doctor on the list. Reads the
 * (doctor_id, date) index.
 */
export async function upcomingBookingsWithDoctor(
  db: Kysely<Database>,
  doctorId: string,
  today: IsoDate,
): Promise<Pick<Booking, 'id' | 'date' | 'slot' | 'patient_name' | 'treatment_id'>[]> {
  const rows = await db
    .selectFrom('booking')
    .select(['id', 'date', 'slot', 'patient_name', 'treatment_id'])
    .where('doctor_id', '=', doctorId)
    .where('date', '>=', today)
    .where('status', 'in', statusesNamed(['booked', 'confirmed', 'arrived']))
    .orderBy('date')
    .orderBy('created_at')
    .execute();
  return rows;
}

/**
 * Locks the patient's account row until the transaction ends (PostgreSQL; SQLite runs one
 * write transaction at a time already), so that a patient's concurrent bookings are counted
 * one after the other. A statement of its own: under READ COMMITTED, the count that follows
 * reads a snapshot taken once the lock is granted. Counted in the locking statement, it read
 * the snapshot from before the wait and missed the booking it waited for (tried: 14 bookings
 * held against a cap of 5 in booking-limits.test.ts).
 */
export async function lockPatient(tx: Kysely<Database>, patientId: string): Promise<void> {
  if (!(tx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await patientLocked(tx, patientId);
}

/** Compiled once (and so prepared): every booking on PostgreSQL takes this lock. */
const patientLocked = compiledOnce((tx: Kysely<Database>, patientId: string) =>
  tx.selectFrom('user').select('id').where('id', '=', patientId).forUpdate(),
);

/**
 * The patient's unpaid bookings with a price from `today` on that are still to come (booked or
 * confirmed; not one the clinic has marked arrived, completed or a no-show): compiled once.
 */
const unpaidUpcoming = compiledOnce((db: Kysely<Database>, patientId: string, today: IsoDate) =>
  db
    .selectFrom('booking')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('patient_id', '=', patientId)
    .where('date', '>=', today)
    .where('status', 'in', statusesNamed(['booked', 'confirmed']))
    .where('paid_at', 'is', null)
    .where('price_cents', '>', 0),
);

/** How many bookings still to come, with a price, the patient has left unpaid from `today` on. */
export async function countUnpaidUpcoming(
  db: Kysely<Database>,
  patientId: string,
  today: IsoDate,
): Promise<number> {
  const [row] = await unpaidUpcoming(db, patientId, today);
  if (!row) throw new Error('a count answered no row');
  return Number(row.count);
}

/** The live booking a patient holds for a treatment on a date (at most one, by a unique index). */
export async function findPatientBooking(
  db: Kysely<Database>,
  patientId: string,
  treatmentId: string,
  date: IsoDate,
): Promise<Booking | undefined> {
  return db
    .selectFrom('booking')
    .selectAll()
    .where('patient_id', '=', patientId)
    .where('treatment_id', '=', treatmentId)
    .where('date', '=', date)
    .where('status', '<>', statusNamed('cancelled'))
    .executeTakeFirst();
}

/** A live booking of the patient's on `date` that holds any time of `slot`. */
export async function findOverlappingBooking(
  db: Kysely<Database>,
  patientId: string,
  date: IsoDate,
  slot: string,
): Promise<Booking | undefined> {
  const units = slotUnits(slot);
  if (units.length === 0) return undefined;
  return db
    .selectFrom('booking_unit')
    .innerJoin('booking', 'booking.id', 'booking_unit.booking_id')
    .selectAll('booking')
    .where('booking_unit.patient_id', '=', patientId)
    .where('booking_unit.date', '=', date)
    .where('booking_unit.unit', 'in', units)
    .executeTakeFirst();
}

/**
 * A patient's live bookings by date, those the clinic cancelled (the patient must hear of them,
 * and of their refunds), and the paid ones the patient cancelled (refunded); the caller orders
 * slots within a day by their start time. Compiled once: My Appointments asks for it often.
 */
export const listPatientBookings = compiledOnce((db: Kysely<Database>, patientId: string) =>
  db
    .selectFrom('booking')
    .select(PRESENTED_COLUMNS)
    .where('patient_id', '=', patientId)
    .where((eb) =>
      eb.or([
        eb('status', '<>', statusNamed('cancelled')),
        eb.and([eb('cancelled_by', 'is not', null), eb('cancelled_by', '<>', patientId)]),
        eb('paid_at', 'is not', null),
      ]),
    )
    .orderBy('date')
    .orderBy('created_at'),
);

/** A booking by its id, whatever its status. */
export async function findBooking(db: Kysely<Database>, id: string): Promise<Booking | undefined> {
  return db.selectFrom('booking').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Marks a live, unpaid booking cancelled (by `cancelledBy`, for `reason`) and gives its time
 * back: the slot, and the patient's units; `audit` is written to the audit log and
 * `whileCancelling` runs with the row as it was, in the same transaction. Answers whether this
 * call did it; false when the booking was paid or cancelled meanwhile (and nothing is recorded).
 */
export async function cancelUnpaidBooking(
  db: Kysely<Database>,
  id: string,
  cancellation: Cancellation,
  audit: AuditEntry,
  whileCancelling: (tx: Kysely<Database>, booking: Booking) => Promise<void>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const cancelled = await cancelBookingWhere(trx, id, cancellation, (eb) =>
      eb.and([eb('status', '<>', statusNamed('cancelled')), eb('paid_at', 'is', null)]),
    );
    if (!cancelled) return false;
    await recordAudit(trx, audit);
    await whileCancelling(trx, cancelled);
    return true;
  });
}

/** Who cancels a booking (an account's id; null for the system), why and when. */
export interface Cancellation {
  by: string | null;
  reason: string;
  at: Date;
}

/**
 * Marks booking `id` cancelled, when it still meets `condition`, and gives its time back (the
 * slot, and the patient's units), in the caller's transaction. Answers the row as it was before,
 * or undefined when this call did not cancel it.
 */
async function cancelBookingWhere(
  tx: Kysely<Database>,
  id: string,
  cancellation: Cancellation,
  condition: (eb: ExpressionBuilder<Database, 'booking'>) => Expression<SqlBool>,
): Promise<Booking | undefined> {
  const before = await lockBooking(tx, id);
  if (!before) return undefined;
  const result = await tx
    .updateTable('booking')
    .set({
      status: 'cancelled',
      cancelled_at: cancellation.at.toISOString(),
      cancelled_by: cancellation.by,
      cancel_reason: cancellation.reason,
    })
    .where('id', '=', id)
    .where(condition)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  await releaseBookingUnits(tx, id);
  return before;
}

/**
 * Marks a live, unpaid booking paid by `transactionId`, in the caller's transaction (the payment
 * is stored in the same one). Answers whether this call did it: false when the booking was paid
 * already, was cancelled, or is gone.
 */
export async function markBookingPaid(
  tx: Kysely<Database>,
  id: string,
  payment: { transactionId: string; paidAt: Date },
): Promise<boolean> {
  const updated = await tx
    .updateTable('booking')
    .set({ paid_at: payment.paidAt.toISOString(), transaction_id: payment.transactionId })
    .where('id', '=', id)
    .where('paid_at', 'is', null)
    .where('status', '<>', statusNamed('cancelled'))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

// ---------------------------------------------------------------------------------------------
// The clinic's side: the schedule, a visit's status, the clinic's cancellation

/** What the schedule may be narrowed to: a range of dates, a treatment, a patient's name or email. */
export interface ScheduleFilter {
  from: IsoDate;
  to: IsoDate;
  treatmentId?: string | undefined;
  /** Part of the patient's name or email, in any case. */
  q?: string | undefined;
}

/**
 * The columns of a booking its views read (the patient's list, the schedule, its CSV), by name
 * (SQLite's `json_object` needs each named), with `created_at` for the order of a slot's
 * bookings: about half of the row's, and better-sqlite3 makes an object of every column read.
 */
const PRESENTED_COLUMNS = [
  'booking.id',
  'booking.treatment_id',
  'booking.treatment_name',
  'booking.price_cents',
  'booking.date',
  'booking.slot',
  'booking.patient_id',
  'booking.patient_email',
  'booking.patient_name',
  'booking.phone',
  'booking.age',
  'booking.created_at',
  'booking.paid_at',
  'booking.transaction_id',
  'booking.status',
  'booking.cancelled_at',
  'booking.cancelled_by',
  'booking.cancel_reason',
  'booking.doctor_id',
  'booking.doctor_name',
  'booking.moved_late_at',
] as const satisfies ReadonlyArray<`booking.${keyof BookingTable}`>;
type Column<C> = C extends `booking.${infer Name extends keyof Booking}` ? Name : never;

/** A booking as its views read it (PRESENTED_COLUMNS). */
export type PresentedBooking = Pick<Booking, Column<(typeof PRESENTED_COLUMNS)[number]>>;

/** `%`, `_` and the escape character itself match literally in a LIKE pattern escaped by '\'. */
const likeContaining = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

/**
 * The bookings from `from` to `to` as one statement of two parts, each reading only the range's
 * entries of an index that leads with the date: the live bookings through the (date,
 * treatment_id, slot) index over live bookings (migrations/0004), the cancelled ones through
 * the partial index over cancelled bookings (migrations/0006). Each row carries its refund's
 * id (the refund table's booking index) and how many of its patient's bookings are no-shows
 * (the partial no-show index, migrations/0006). Exported for the test that reads its query plan
 * on both engines.
 */
export function scheduleQuery(db: Kysely<Database>, filter: ScheduleFilter) {
  const part = (cancelled: boolean) => {
    let query = db
      .selectFrom('booking')
      .select(PRESENTED_COLUMNS)
      .select((eb) => [
        refundOfBooking(eb).as('refund_id'),
        eb
          .selectFrom('booking as history')
          .select((count) => count.fn.countAll<number | string>().as('count'))
          .whereRef('history.patient_id', '=', 'booking.patient_id')
          .where('history.status', '=', statusNamed('no_show'))
          .as('no_shows'),
      ])
      .where('booking.date', '>=', filter.from)
      .where('booking.date', '<=', filter.to)
      .where('booking.status', cancelled ? '=' : '<>', statusNamed('cancelled'));
    if (filter.treatmentId) query = query.where('booking.treatment_id', '=', filter.treatmentId);
    if (filter.q) {
      const pattern = likeContaining(filter.q);
      query = query.where((eb) =>
        eb.or([
          sql<boolean>`lower(${eb.ref('booking.patient_name')}) like ${pattern} escape '\\'`,
          sql<boolean>`lower(${eb.ref('booking.patient_email')}) like ${pattern} escape '\\'`,
        ]),
      );
    }
    return query;
  };
  return part(false).unionAll(part(true));
}

/** A booking on the schedule, with its refund's id and its patient's count of no-shows. */
export type ScheduledBooking = PresentedBooking & {
  refund_id: string | null;
  no_shows: number;
};

/**
 * The bookings of the schedule's range (see `scheduleQuery`), in no particular order. On SQLite
 * they are read as one JSON array that the database writes (`json_group_array` of `json_object`s,
 * through Kysely's helper) and one `JSON.parse`: better-sqlite3 makes a row's object a column, a
 * string, at a time, and a day's 500 rows cost a third more that way (docs/performance.md).
 * Every column is text or an integer, so the JSON gives each value back as the row would: the
 * same strings, numbers and nulls. PostgreSQL's driver reads plain rows faster than its own
 * `json_agg` is written, so there they are read as rows.
 */
export async function listSchedule(
  db: Kysely<Database>,
  filter: ScheduleFilter,
): Promise<ScheduledBooking[]> {
  const query = scheduleQuery(db, filter);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const rows = (await query.execute()) as ScheduleRow[];
    // In place rather than a copy of each row: a day's schedule reads hundreds. The bigint count
    // comes as a number (database.ts), or as text from a driver that keeps the default parser.
    for (const row of rows) {
      row.refund_id ??= null;
      row.no_shows = Number(row.no_shows ?? 0);
    }
    return rows as ScheduledBooking[];
  }
  const { bookings } = await db
    .selectNoFrom(jsonArrayFrom(query).as('bookings'))
    .executeTakeFirstOrThrow();
  // Text as SQLite answers it; a count is a JSON number.
  return JSON.parse(bookings as unknown as string) as ScheduledBooking[];
}

/** A row of `scheduleQuery` as the driver gives it. */
type ScheduleRow = Omit<ScheduledBooking, 'no_shows'> & { no_shows: number | string | null };

/**
 * The bookings, live and cancelled, on any date, whose patient's name or email contains `q` in
 * any case (`%` and `_` match literally): at most `limit`, the upcoming ones first (from `today`,
 * soonest first), then the past ones (most recent first), each day's in the order they were made;
 * `more` when others match too. Each part is the schedule's query (`scheduleQuery`) over an
 * open-ended range, read in date order and cut by LIMIT: the indexes that lead with the date
 * give that order, but the LIKE '%q%' can use no b-tree index, so a search that matches little
 * reads every booking's row (decision 017).
 */
export async function searchSchedule(
  db: Kysely<Database>,
  search: { q: string; today: IsoDate; limit: number },
): Promise<{ bookings: ScheduledBooking[]; more: boolean }> {
  const { q, today, limit } = search;
  const read = async (from: IsoDate, to: IsoDate, order: 'asc' | 'desc', count: number) => {
    if (count <= 0) return [];
    const rows = await scheduleQuery(db, { from, to, q })
      .orderBy('date', order)
      .orderBy('created_at')
      .orderBy('id')
      .limit(count)
      .execute();
    return rows.map((row) => ({
      ...row,
      refund_id: row.refund_id ?? null,
      no_shows: Number(row.no_shows ?? 0),
    }));
  };
  const upcoming = await read(today, LAST_DATE, 'asc', limit + 1);
  const past = await read(
    '0000-01-01' as IsoDate,
    addDays(today, -1),
    'desc',
    limit + 1 - upcoming.length,
  );
  const found = [...upcoming, ...past];
  return { bookings: found.slice(0, limit), more: found.length > limit };
}

/**
 * The live bookings from the clinic's `today` on that hold one of `slots` of the treatment,
 * by date and slot.
 */
export async function bookingsHoldingSlots(
  db: Kysely<Database>,
  treatmentId: string,
  slots: string[],
  today: IsoDate,
): Promise<Pick<Booking, 'id' | 'date' | 'slot' | 'patient_name'>[]> {
  if (slots.length === 0) return [];
  return db
    .selectFrom('booking')
    .select(['id', 'date', 'slot', 'patient_name'])
    .where('treatment_id', '=', treatmentId)
    .where('status', '<>', statusNamed('cancelled'))
    .where('date', '>=', today)
    .where('slot', 'in', slots)
    .orderBy('date')
    .orderBy('slot')
    .execute();
}

/**
 * Sets a booking's visit status to `status` when it is in one of `from`, in the caller's
 * transaction. Answers whether this call changed it.
 */
export async function setVisitStatus(
  tx: Kysely<Database>,
  id: string,
  status: BookingStatus,
  from: readonly BookingStatus[],
): Promise<boolean> {
  const result = await tx
    .updateTable('booking')
    .set({ status })
    .where('id', '=', id)
    .where('status', 'in', statusesNamed(from))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Marks a booking in one of the statuses `from`, and still `paid` or unpaid as its canceller
 * read it, cancelled (by `by`, for `reason`) and gives its time back, in the caller's
 * transaction (a paid one is refunded first, so one paid meanwhile must stay). Answers the row
 * as it was, or undefined when this call did not cancel it.
 */
export async function cancelLiveBooking(
  tx: Kysely<Database>,
  id: string,
  from: readonly BookingStatus[],
  paid: boolean,
  cancellation: Cancellation & { by: string },
): Promise<Booking | undefined> {
  return cancelBookingWhere(tx, id, cancellation, (eb) =>
    eb.and([eb('status', 'in', statusesNamed(from)), eb('paid_at', paid ? 'is not' : 'is', null)]),
  );
}

/**
 * Which booking rule a unique violation broke: see the indexes in migrations/0004 and 0009
 * ('doctor': the doctor holds some of that time already).
 */
export type BookingRule = 'slot' | 'patient' | 'overlap' | 'doctor';

const RULE_COLUMNS: Record<string, BookingRule> = {
  'booking:date,slot,treatment_id': 'slot',
  'booking:date,patient_id,treatment_id': 'patient',
  'booking_unit:date,patient_id,unit': 'overlap',
  'doctor_unit:date,doctor_id,unit': 'doctor',
};
const RULE_INDEXES: Record<string, BookingRule> = {
  booking_slot_unique: 'slot',
  booking_patient_unique: 'patient',
  booking_unit_patient_unique: 'overlap',
  doctor_unit_doctor_unique: 'doctor',
};

/** The booking rule behind a failed insert, or null when it broke none of them. */
export function brokenBookingRule(error: unknown): BookingRule | null {
  const violation = uniqueViolation(error);
  if (!violation) return null;
  if (violation.index !== null) return RULE_INDEXES[violation.index] ?? null;
  return RULE_COLUMNS[`${violation.table}:${violation.columns.join(',')}`] ?? null;
}

// ---------------------------------------------------------------------------------------------
// The patient's own account: history, their data, and the removal of their account

/**
 * The patient's past and cancelled visits, the latest first: every booking of theirs dated
 * before `today`, and the cancelled ones of any date. Reads the (patient_id, date) index.
 */
export async function listPatientHistory(
  db: Kysely<Database>,
  patientId: string,
  today: IsoDate,
): Promise<(Booking & { refunded: boolean })[]> {
  const rows = await db
    .selectFrom('booking')
    .selectAll('booking')
    .select((eb) => eb.exists(refundOfBooking(eb)).as('refunded'))
    .where('booking.patient_id', '=', patientId)
    .where((eb) =>
      eb.or([eb('booking.date', '<', today), eb('booking.status', '=', statusNamed('cancelled'))]),
    )
    .orderBy('booking.date', 'desc')
    .orderBy('booking.created_at', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, refunded: Boolean(row.refunded) }));
}

/** Every booking of the patient's, cancelled ones too, by date (their data, to take with them). */
export async function listAllPatientBookings(
  db: Kysely<Database>,
  patientId: string,
): Promise<Booking[]> {
  return patientBookingsByDate(db, patientId).execute();
}

/** The patient's bookings in the order they are listed: by date, then as they were made. */
function patientBookingsByDate(db: Kysely<Database>, patientId: string) {
  return db
    .selectFrom('booking')
    .selectAll()
    .where('patient_id', '=', patientId)
    .orderBy('date')
    .orderBy('created_at');
}

/**
 * The patient's live, unpaid bookings from `today` on that are not yet under way (booked or
 * confirmed): what the removal of their account cancels.
 */
export async function upcomingUnpaidBookingsOf(
  db: Kysely<Database>,
  patientId: string,
  today: IsoDate,
): Promise<Booking[]> {
  return db
    .selectFrom('booking')
    .selectAll()
    .where('patient_id', '=', patientId)
    .where('date', '>=', today)
    .where('status', 'in', statusesNamed(['booked', 'confirmed']))
    .where('paid_at', 'is', null)
    .execute();
}

/**
 * Who cancelled a booking that its patient cancelled before removing their account: their id no
 * longer names anyone, and the booking no longer names them (`patient_id` null).
 */
export const CANCELLED_BY_FORMER_PATIENT = 'former-patient';

/**
 * The patient's bookings that stay on the clinic's records once their account is removed: the
 * name and phone replaced, no longer linked to an account (decision 013), in the caller's
 * transaction. Answers them as they are now.
 */
export async function anonymisePatientBookings(
  tx: Kysely<Database>,
  patientId: string,
  replacement: { name: string; phone: string },
): Promise<Booking[]> {
  // Their own cancellations stay theirs once no booking names the account.
  await tx
    .updateTable('booking')
    .set({ cancelled_by: CANCELLED_BY_FORMER_PATIENT })
    .where('patient_id', '=', patientId)
    .where('cancelled_by', '=', patientId)
    .execute();
  await tx
    .updateTable('booking_unit')
    .set({ patient_id: null })
    .where('patient_id', '=', patientId)
    .execute();
  return tx
    .updateTable('booking')
    .set({ patient_name: replacement.name, phone: replacement.phone, patient_id: null })
    .where('patient_id', '=', patientId)
    .returningAll()
    .execute();
}

// ---------------------------------------------------------------------------------------------
// The patient's reschedule

/**
 * A booking by its id, its row locked until the caller's transaction ends (PostgreSQL; SQLite
 * runs one write transaction at a time already): what a reschedule reads before moving it.
 */
export async function lockBooking(tx: Kysely<Database>, id: string): Promise<Booking | undefined> {
  let query = tx.selectFrom('booking').selectAll().where('id', '=', id);
  if (tx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Gives back the time a booking holds (its patient's and its doctor's units), in `tx`. */
export async function releaseBookingUnits(tx: Kysely<Database>, id: string): Promise<void> {
  await tx.deleteFrom('booking_unit').where('booking_id', '=', id).execute();
  await tx.deleteFrom('doctor_unit').where('booking_id', '=', id).execute();
}

/**
 * Where a booking is moved to: a date, a slot, and the doctor (null: none); and when it was
 * moved inside the cancellation notice, if it ever was (kept once set).
 */
export interface BookingMove {
  date: IsoDate;
  slot: string;
  doctor_id: string | null;
  doctor_name: string | null;
  moved_late_at: string | null;
}

/**
 * Moves a live (booked or confirmed) booking in place, in the caller's transaction, whose units
 * `releaseBookingUnits` gave back first: the same row gets the new date, slot and doctor and its
 * calendar SEQUENCE one higher, and holds the new time's units. The unique indexes decide races
 * as for a new booking: a violation is thrown (`brokenBookingRule` says which rule). Answers the
 * moved row, or undefined when the booking is no longer live.
 */
export async function moveBooking(
  tx: Kysely<Database>,
  id: string,
  move: BookingMove,
): Promise<Booking | undefined> {
  const moved = await tx
    .updateTable('booking')
    .set({
      date: move.date,
      slot: move.slot,
      doctor_id: move.doctor_id,
      doctor_name: move.doctor_name,
      moved_late_at: move.moved_late_at,
      sequence: sql<number>`sequence + 1`,
    })
    .where('id', '=', id)
    .where('status', 'in', statusesNamed(['booked', 'confirmed']))
    .returningAll()
    .executeTakeFirst();
  if (!moved) return undefined;
  await insertUnits(tx, moved);
  return moved;
}

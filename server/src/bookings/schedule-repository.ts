import type { IsoDate } from '@doctors-portal/contract';
import { type Kysely, sql } from 'kysely';
import type { Booking, BookingStatus, Database } from '../db/schema.js';
import { type Cancellation, cancelBookingWhere } from './repository.js';

/**
 * The bookings as the clinic's back office reads and changes them: the schedule of a range of
 * dates, a visit's status, and the clinic's cancellation. Part of the bookings repository (the
 * only code that reads or writes bookings), kept apart from the patient's side of it.
 */

/** What the schedule may be narrowed to: a range of dates, a treatment, a patient's name or email. */
export interface ScheduleFilter {
  from: IsoDate;
  to: IsoDate;
  treatmentId?: string | undefined;
  /** Part of the patient's name or email, in any case. */
  q?: string | undefined;
}

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
      .selectAll('booking')
      .select((eb) => [
        eb
          .selectFrom('refund')
          .select('refund.id')
          .whereRef('refund.booking_id', '=', 'booking.id')
          .orderBy('refund.created_at', 'desc')
          .limit(1)
          .as('refund_id'),
        eb
          .selectFrom('booking as history')
          .select((count) => count.fn.countAll<number | string>().as('count'))
          .whereRef('history.patient_id', '=', 'booking.patient_id')
          .where('history.status', '=', 'no_show')
          .as('no_shows'),
      ])
      .where('booking.date', '>=', filter.from)
      .where('booking.date', '<=', filter.to)
      .where('booking.status', cancelled ? '=' : '<>', 'cancelled');
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
export type ScheduledBooking = Booking & { refund_id: string | null; no_shows: number };

/** The bookings of the schedule's range (see `scheduleQuery`), in no particular order. */
export async function listSchedule(
  db: Kysely<Database>,
  filter: ScheduleFilter,
): Promise<ScheduledBooking[]> {
  const rows = await scheduleQuery(db, filter).execute();
  return rows.map((row) => ({
    ...row,
    refund_id: row.refund_id ?? null,
    no_shows: Number(row.no_shows ?? 0),
  }));
}

/** Ids in lists short enough for either engine's limit on a statement's parameters. */
function* inChunks<T>(values: T[], size = 500): Generator<T[]> {
  for (let at = 0; at < values.length; at += size) yield values.slice(at, at + size);
}

/**
 * The refund of each booking that has one, by booking id (the refund table's own, as the
 * payments repository writes it; read here to show the bookings).
 */
export async function refundsOf(
  db: Kysely<Database>,
  bookingIds: string[],
): Promise<Map<string, string>> {
  const refunds = new Map<string, string>();
  for (const chunk of inChunks(bookingIds)) {
    const rows = await db
      .selectFrom('refund')
      .select(['booking_id', 'id'])
      .where('booking_id', 'in', chunk)
      .orderBy('created_at')
      .execute();
    for (const row of rows) refunds.set(row.booking_id, row.id);
  }
  return refunds;
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
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Marks a booking in one of the statuses `from` cancelled (by `by`, for `reason`) and gives its
 * time back, in the caller's transaction, paid or not (the clinic's cancellation refunds a paid
 * one first). Answers whether this call did it.
 */
export async function cancelLiveBooking(
  tx: Kysely<Database>,
  id: string,
  from: readonly BookingStatus[],
  cancellation: Cancellation & { by: string },
): Promise<boolean> {
  return cancelBookingWhere(tx, id, cancellation, (eb) => eb('status', 'in', [...from]));
}

import { type Kysely, sql } from 'kysely';

/**
 * The clinic's schedule (`GET /api/schedule`) reads a range of dates: its live bookings through
 * the (date, treatment_id, slot) index over live bookings (migrations/0004), and its cancelled
 * ones through a partial index of their own here, so that neither read grows with the bookings
 * stored for other dates. Each booking on it shows how many of its patient's visits were
 * no-shows: a partial index over no-shows counts them without reading the patient's other
 * bookings. Both indexes are small (cancelled bookings and no-shows only) and the booking rows
 * are unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('booking_cancelled_date_idx')
    .on('booking')
    .column('date')
    .where(sql<boolean>`status = 'cancelled'`)
    .execute();
  await db.schema
    .createIndex('booking_no_show_idx')
    .on('booking')
    .column('patient_id')
    .where(sql<boolean>`status = 'no_show'`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('booking_no_show_idx').execute();
  await db.schema.dropIndex('booking_cancelled_date_idx').execute();
}

import type { Kysely } from 'kysely';

/**
 * The patient's bookings by date, with what tells whether each is live, unpaid and priced: the
 * unpaid count every booking checks (MAX_UNPAID_BOOKINGS) is then read from the index alone.
 * With only (patient_id, date) it fetched each of the patient's upcoming bookings from the
 * table, and its cost grew with the patient's history: 44 µs at 5,000 bookings, 117 µs at a
 * million (docs/performance.md). Every query that used the index still finds its prefix.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('booking_patient_date_idx').execute();
  await db.schema
    .createIndex('booking_patient_date_idx')
    .on('booking')
    .columns(['patient_id', 'date', 'status', 'paid_at', 'price_cents'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('booking_patient_date_idx').execute();
  await db.schema
    .createIndex('booking_patient_date_idx')
    .on('booking')
    .columns(['patient_id', 'date'])
    .execute();
}

import { slotUnits } from '@doctors-portal/contract';
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Bookings belong to accounts and are never deleted.
 *
 * - A booking has a status; a cancelled one keeps who cancelled it, when and why. The booking
 *   rules (one booking per slot, one per patient per treatment per date) become partial unique
 *   indexes over the bookings that are not cancelled, so a cancellation frees its slot while
 *   the race guarantees stand. The patient rule is keyed by the account's id, not the email.
 * - `booking_unit` holds a row for every time unit (contract: `slotUnits`) of the day a live booking covers, under a
 *   unique index on (patient, date, unit): a patient is never in two chairs at once, whatever
 *   the treatments and their lengths, and concurrent bookings cannot get around it.
 * - Refunds are recorded with the provider's id; the demo gateway can cancel an intent and
 *   records the refunds it makes.
 *
 * Existing bookings become 'booked' and get their units. A patient who already holds two
 * overlapping bookings keeps both: the later one's clashing units are left out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const live = sql<boolean>`status <> 'cancelled'`;

  await db.schema
    .alterTable('booking')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('booked'))
    .execute();
  for (const column of ['cancelled_at', 'cancelled_by', 'cancel_reason']) {
    await db.schema.alterTable('booking').addColumn(column, 'text').execute();
  }

  for (const index of [
    'booking_slot_unique',
    'booking_patient_unique',
    'booking_patient_date_idx',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema
    .createIndex('booking_slot_unique')
    .on('booking')
    .columns(['date', 'treatment_id', 'slot'])
    .unique()
    .where(live)
    .execute();
  await db.schema
    .createIndex('booking_patient_unique')
    .on('booking')
    .columns(['patient_id', 'treatment_id', 'date'])
    .unique()
    .where(live)
    .execute();
  await db.schema
    .createIndex('booking_patient_date_idx')
    .on('booking')
    .columns(['patient_id', 'date'])
    .execute();

  await db.schema
    .createTable('booking_unit')
    .addColumn('booking_id', 'text', (c) => c.notNull().references('booking.id'))
    .addColumn('patient_id', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('unit', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('booking_unit_pk', ['booking_id', 'unit'])
    .execute();
  await db.schema
    .createIndex('booking_unit_patient_unique')
    .on('booking_unit')
    .columns(['patient_id', 'date', 'unit'])
    .unique()
    .execute();

  const bookings = await sql<{ id: string; patient_id: string | null; date: string; slot: string }>`
    select id, patient_id, date, slot from booking where patient_id is not null
    order by created_at`.execute(db);
  const rows = bookings.rows.flatMap((booking) =>
    slotUnits(booking.slot).map((unit) => ({
      booking_id: booking.id,
      patient_id: booking.patient_id,
      date: booking.date,
      unit,
    })),
  );
  for (let at = 0; at < rows.length; at += 500) {
    await (db as Kysely<{ booking_unit: (typeof rows)[number] }>)
      .insertInto('booking_unit')
      .values(rows.slice(at, at + 500))
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  }

  await db.schema.alterTable('demo_payment_intent').addColumn('canceled_at', 'text').execute();
  await db.schema
    .createTable('demo_refund')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('intent_id', 'text', (c) => c.notNull().unique())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // The portal's record of money given back: one full refund per charge.
  await db.schema
    .createTable('refund')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('booking_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('intent_id', 'text', (c) => c.notNull().unique())
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refund_booking_idx').on('refund').column('booking_id').execute();

  if (postgres) await sql`analyze booking`.execute(db);
}

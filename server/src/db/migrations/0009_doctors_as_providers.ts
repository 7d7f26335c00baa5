import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Doctors as providers (docs/decisions/020): a slot is offered when a doctor who performs the
 * treatment works that day and is free, and no doctor is ever in two places at once.
 *
 * - `doctor.work_days`: the weekdays the doctor works, as JSON (0 = Sunday … 6); every day by
 *   default.
 * - `doctor_treatment`: the treatments a doctor performs, in the order the clinic listed them
 *   (the specialty's first). Existing doctors perform the treatment their specialty names.
 * - `doctor_day_off`: the dates a doctor is off (holidays, leave), read by date.
 * - `booking.doctor_id` and `booking.doctor_name`: the doctor a booking is with, the name as it
 *   was when booked (like the treatment's); null for a treatment no doctor performs.
 * - `doctor_unit`: one row for every time unit a live booking with a doctor covers, written in
 *   the booking's transaction and deleted with its cancellation, exactly as `booking_unit` is for
 *   the patient, under a unique index over (date, doctor, unit): a doctor's bookings never
 *   overlap, on either engine, whatever the race.
 * - The one-chair rule (`booking_slot_unique`) now holds per doctor: a slot of a treatment on a
 *   date is booked once without a doctor, and once per doctor. It still leads with the date, so
 *   the availability and schedule reads keep using it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .alterTable('doctor')
    .addColumn('work_days', 'text', (c) => c.notNull().defaultTo('[0,1,2,3,4,5,6]'))
    .execute();

  await db.schema
    .createTable('doctor_treatment')
    .addColumn('doctor_id', 'text', (c) => c.notNull().references('doctor.id').onDelete('cascade'))
    .addColumn('treatment_id', 'text', (c) => c.notNull().references('treatment.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('doctor_treatment_pk', ['doctor_id', 'treatment_id'])
    .execute();
  await db.schema
    .createIndex('doctor_treatment_treatment_idx')
    .on('doctor_treatment')
    .columns(['treatment_id', 'doctor_id'])
    .execute();

  await db.schema
    .createTable('doctor_day_off')
    .addColumn('doctor_id', 'text', (c) => c.notNull().references('doctor.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('doctor_day_off_pk', ['doctor_id', 'date'])
    .execute();
  await db.schema
    .createIndex('doctor_day_off_date_idx')
    .on('doctor_day_off')
    .columns(['date', 'doctor_id'])
    .execute();

  // No foreign key: a booking keeps the doctor it was with after the doctor leaves the list.
  await db.schema.alterTable('booking').addColumn('doctor_id', 'text').execute();
  await db.schema.alterTable('booking').addColumn('doctor_name', 'text').execute();
  await db.schema
    .createIndex('booking_doctor_date_idx')
    .on('booking')
    .columns(['doctor_id', 'date'])
    .where(sql<boolean>`doctor_id is not null`)
    .execute();

  await db.schema.dropIndex('booking_slot_unique').execute();
  await sql`create unique index booking_slot_unique
    on booking (date, treatment_id, slot, coalesce(doctor_id, ''))
    where status <> 'cancelled'`.execute(db);

  await db.schema
    .createTable('doctor_unit')
    .addColumn('booking_id', 'text', (c) => c.notNull().references('booking.id'))
    .addColumn('doctor_id', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('unit', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('doctor_unit_pk', ['booking_id', 'unit'])
    .execute();
  // Leading with the date, the one index also serves availability's read of a day's units.
  await db.schema
    .createIndex('doctor_unit_doctor_unique')
    .on('doctor_unit')
    .columns(['date', 'doctor_id', 'unit'])
    .unique()
    .execute();

  // A doctor performs the treatment their specialty names (an offered one first, if two do).
  const doctors = await sql<{ id: string; specialty: string }>`
    select id, specialty from doctor`.execute(db);
  const treatments = await sql<{ id: string; name: string; retired_at: string | null }>`
    select id, name, retired_at from treatment order by sort_order, id`.execute(db);
  const rows = doctors.rows.flatMap((doctor) => {
    const named = treatments.rows.filter((treatment) => treatment.name === doctor.specialty);
    const treatment = named.find((t) => t.retired_at === null) ?? named[0];
    return treatment ? [{ doctor_id: doctor.id, treatment_id: treatment.id, position: 0 }] : [];
  });
  for (let at = 0; at < rows.length; at += 500) {
    await (db as Kysely<{ doctor_treatment: (typeof rows)[number] }>)
      .insertInto('doctor_treatment')
      .values(rows.slice(at, at + 500))
      .execute();
  }

  if (postgres) await sql`analyze booking`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('doctor_unit').execute();
  await db.schema.dropIndex('booking_slot_unique').execute();
  await db.schema
    .createIndex('booking_slot_unique')
    .on('booking')
    .columns(['date', 'treatment_id', 'slot'])
    .unique()
    .where(sql<boolean>`status <> 'cancelled'`)
    .execute();
  await db.schema.dropIndex('booking_doctor_date_idx').execute();
  await db.schema.alterTable('booking').dropColumn('doctor_name').execute();
  await db.schema.alterTable('booking').dropColumn('doctor_id').execute();
  await db.schema.dropTable('doctor_day_off').execute();
  await db.schema.dropTable('doctor_treatment').execute();
  await db.schema.alterTable('doctor').dropColumn('work_days').execute();
}

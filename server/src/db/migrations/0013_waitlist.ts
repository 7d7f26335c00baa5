import type { Kysely } from 'kysely';

/**
 * The waitlist (issue 16, item 5; docs/decisions/024): patients waiting for a slot of a
 * treatment on a date, served in the order they joined. `waitlist_notice` records who was told
 * of which freed slot, so a freed slot is mailed to the first few not yet told of it and never
 * twice to the same patient. A patient's entries go with their account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('waitlist_entry')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('patient_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('treatment_id', 'text', (c) =>
      c.notNull().references('treatment.id').onDelete('cascade'),
    )
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // One entry per patient, treatment and date: a second join is refused by the index.
    .addUniqueConstraint('waitlist_entry_patient_treatment_date', [
      'patient_id',
      'treatment_id',
      'date',
    ])
    .execute();
  await db.schema
    .createIndex('waitlist_entry_by_day')
    .on('waitlist_entry')
    .columns(['treatment_id', 'date', 'created_at'])
    .execute();
  await db.schema
    .createTable('waitlist_notice')
    .addColumn('entry_id', 'text', (c) =>
      c.notNull().references('waitlist_entry.id').onDelete('cascade'),
    )
    .addColumn('slot', 'text', (c) => c.notNull())
    .addColumn('told_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('waitlist_notice_pk', ['entry_id', 'slot'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('waitlist_notice').execute();
  await db.schema.dropTable('waitlist_entry').execute();
}

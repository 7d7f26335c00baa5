import type { Kysely } from 'kysely';

/**
 * The one-tap links of the patient's mail that were used (issue 16, item 2). A link is made
 * when its mail is written and never stored; using one records its random id here in the
 * transaction that acts on the booking, so the primary key refuses a second use, even a
 * concurrent one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('visit_link_use')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('booking_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('visit_link_use').execute();
}

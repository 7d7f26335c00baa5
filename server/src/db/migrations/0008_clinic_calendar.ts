import type { Kysely } from 'kysely';

/**
 * The clinic's calendar and booking rules (`/dashboard/clinic`).
 *
 * - `clinic_setting` holds one row per setting the clinic changed, its value as JSON:
 *   `opening_days` (the weekly opening days, 0 = Sunday … 6) and `booking_rules`. A setting
 *   without a row keeps its default: every day open, and the environment's booking rules.
 * - `closure` holds the dates the clinic is closed (holidays): a range of ISO dates, both
 *   included, with a label patients and staff read. Indexed by its last date, which is how the
 *   portal reads them (the closures not yet over).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('clinic_setting')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .execute();
  await db.schema
    .createTable('closure')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('from_date', 'text', (c) => c.notNull())
    .addColumn('to_date', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .execute();
  await db.schema
    .createIndex('closure_to_date_idx')
    .on('closure')
    .columns(['to_date', 'from_date'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('closure').execute();
  await db.schema.dropTable('clinic_setting').execute();
}

import type { Kysely } from 'kysely';

/**
 * The clinic edits its own treatments (`/dashboard/treatments`): each gets a description, and a
 * treatment the clinic no longer offers is retired rather than deleted (its bookings refer to
 * it, and keep the name and price they were booked with). Existing rows get an empty
 * description and stay offered.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('treatment')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('treatment').addColumn('retired_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('treatment').dropColumn('retired_at').execute();
  await db.schema.alterTable('treatment').dropColumn('description').execute();
}

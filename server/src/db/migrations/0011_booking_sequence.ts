import type { Kysely } from 'kysely';

/**
 * A booking's calendar revision (issue 16, reschedule): the SEQUENCE of its calendar event,
 * 0 as first confirmed and one more each time the patient moves it, so that the updated .ics
 * (same UID) replaces the event in the patient's calendar rather than adding a second one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('booking')
    .addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('booking').dropColumn('sequence').execute();
}

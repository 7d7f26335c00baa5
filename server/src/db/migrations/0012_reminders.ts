import type { Kysely } from 'kysely';

/**
 * Reminders (issue 16): a queued message may belong to a booking, so that the booking's pending
 * reminder is found (and withdrawn) when the booking moves or is cancelled, in the same
 * transaction. Null for mail that tells of no booking in particular.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_queue').addColumn('booking_id', 'text').execute();
  await db.schema
    .createIndex('mail_queue_booking_id')
    .on('mail_queue')
    .column('booking_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('mail_queue_booking_id').execute();
  await db.schema.alterTable('mail_queue').dropColumn('booking_id').execute();
}

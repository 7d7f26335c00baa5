import type { Kysely } from 'kysely';

/**
 * A doctor's own calendar feed (issue 15): one secret feed URL per doctor, which calendar apps
 * subscribe to. Only the SHA-256 of the URL's token is kept (`token_hash`, base64url, unique),
 * so that a copy of the database opens no feed; a new feed replaces the row (the old URL stops
 * at once) and turning the feed off deletes it. The row goes with its doctor.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('doctor_calendar_feed')
    .addColumn('doctor_id', 'text', (c) =>
      c.primaryKey().references('doctor.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .execute();
  await db.schema
    .createIndex('doctor_calendar_feed_token_unique')
    .on('doctor_calendar_feed')
    .column('token_hash')
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('doctor_calendar_feed').execute();
}

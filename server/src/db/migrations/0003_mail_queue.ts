import type { Kysely } from 'kysely';

/**
 * Mail waiting to be sent: written in the same transaction as what it tells of (a booking), so
 * that neither exists without the other, and sent in the background at the relay's pace. A
 * message is deleted once the relay has taken it; one that keeps failing stays with its error.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_queue')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // When it may be tried next; null once the sender has given up on it.
    .addColumn('send_after', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .execute();
  await db.schema
    .createIndex('mail_queue_send_after')
    .on('mail_queue')
    .column('send_after')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mail_queue').execute();
}

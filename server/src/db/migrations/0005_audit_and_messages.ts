import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The audit log and the clinic's contact messages.
 *
 * - `audit_log` is append-only: a row is written in the same transaction as the change it tells
 *   of (audit/log.ts), and the engine itself refuses to update or delete one (triggers on both
 *   engines), so not even a bug in the server can rewrite history. Who acted is kept by value
 *   (id, name and email as they were) with no foreign key: removing an account keeps its record.
 * - `contact_message` holds what visitors send through the landing page's Contact Us form;
 *   `read_at` is null while nobody at the clinic has read it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) =>
      c.notNull().check(sql`actor_kind in ('admin', 'patient', 'system')`),
    )
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    // What a person reads for the subject, as it was: a booking's treatment and date, an email.
    .addColumn('subject_label', 'text')
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').columns(['at', 'id']).execute();
  await db.schema
    .createIndex('audit_log_actor_idx')
    .on('audit_log')
    .columns(['actor_id', 'at'])
    .execute();
  await db.schema
    .createIndex('audit_log_action_idx')
    .on('audit_log')
    .columns(['action', 'at'])
    .execute();
  await db.schema
    .createIndex('audit_log_subject_idx')
    .on('audit_log')
    .columns(['subject_type', 'subject_id'])
    .execute();

  if (postgres) {
    await sql`
      create function audit_log_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'the audit log is append-only';
      end
      $$`.execute(db);
    await sql`
      create trigger audit_log_append_only before update or delete on audit_log
      for each row execute function audit_log_append_only()`.execute(db);
  } else {
    for (const operation of ['update', 'delete']) {
      await sql`
        create trigger ${sql.raw(`audit_log_no_${operation}`)} before ${sql.raw(operation)}
        on audit_log begin select raise(abort, 'the audit log is append-only'); end`.execute(db);
    }
  }

  await db.schema
    .createTable('contact_message')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .execute();
  await db.schema
    .createIndex('contact_message_created_idx')
    .on('contact_message')
    .columns(['created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropTable('contact_message').execute();
  await db.schema.dropTable('audit_log').execute();
  if (postgres) await sql`drop function audit_log_append_only()`.execute(db);
}

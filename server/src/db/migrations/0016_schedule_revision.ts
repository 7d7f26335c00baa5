import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * What tells an instance that the clinic's schedule may have changed (decision 026): every
 * statement that writes a booking or a refund, through any instance, any code path, is recorded
 * by the database itself, so that `GET /api/schedule` can keep its answer for as long as neither
 * table changed and check that with one small read.
 *
 * SQLite writes one transaction at a time: a single revision row, bumped by triggers, suffices.
 * On PostgreSQL a shared row would be locked by every booking's transaction until it ends
 * (serialising them, and deadlocking a reschedule that locked its booking first against a
 * cancellation of it), so each writing transaction instead inserts its own id, once, into
 * `schedule_change` (no row is shared, nothing waits); a reader compares those ids with the
 * snapshot it read under (`pg_visible_in_snapshot`), which a commit becomes visible in only
 * once it is whole.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create table schedule_change (xid xid8 primary key)`.execute(db);
    await sql`
      create function schedule_change_record() returns trigger language plpgsql as $$
      begin
        insert into schedule_change values (pg_current_xact_id()) on conflict do nothing;
        return null;
      end
      $$`.execute(db);
    for (const table of ['booking', 'refund']) {
      await sql`
        create trigger ${sql.raw(`${table}_schedule_change`)}
        after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function schedule_change_record()`.execute(db);
    }
    return;
  }
  await sql`
    create table schedule_revision (
      id integer primary key check (id = 1),
      revision integer not null
    )`.execute(db);
  await sql`insert into schedule_revision values (1, 0)`.execute(db);
  for (const table of ['booking', 'refund']) {
    for (const operation of ['insert', 'update', 'delete']) {
      await sql`
        create trigger ${sql.raw(`${table}_schedule_${operation}`)} after ${sql.raw(operation)}
        on ${sql.table(table)} begin
          update schedule_revision set revision = revision + 1 where id = 1;
        end`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const table of ['booking', 'refund']) {
      await sql`drop trigger ${sql.raw(`${table}_schedule_change`)} on ${sql.table(table)}`.execute(
        db,
      );
    }
    await sql`drop function schedule_change_record()`.execute(db);
    await sql`drop table schedule_change`.execute(db);
    return;
  }
  for (const table of ['booking', 'refund']) {
    for (const operation of ['insert', 'update', 'delete']) {
      await sql`drop trigger ${sql.raw(`${table}_schedule_${operation}`)}`.execute(db);
    }
  }
  await sql`drop table schedule_revision`.execute(db);
}

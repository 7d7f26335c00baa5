import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Where PostgreSQL's record of writing transactions (`schedule_change`, migration 0016) begins.
 * The record is pruned of the transactions that ended before every running one began; a token
 * read under an older snapshot than this horizon then counts as changed, since the writes it
 * did not see may be gone from the record (schedule/answer-cache.ts, decision 030). SQLite keeps
 * one revision row, which does not grow: nothing to add there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    create table schedule_change_horizon (
      id integer primary key check (id = 1),
      xid xid8 not null
    )`.execute(db);
  await sql`insert into schedule_change_horizon values (1, '0')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop table schedule_change_horizon`.execute(db);
}

import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Where the bookings and refunds stand now, as a token, and whether they changed since the
 * token `since` was read (migrations/0016, decision 026). Sound for every write through any
 * instance: the database records each one itself.
 *
 * SQLite: the token is the revision every write bumps. PostgreSQL: it is the snapshot this
 * statement reads under, and a change since `since` is a recorded writing transaction that
 * `since` does not see (it was running then, or began later) and that has committed since; a
 * snapshot older than the record's horizon (`pruneScheduleChanges`) counts as changed.
 * Read before the data it tags, a token is never newer than that data: a write that lands
 * between the two is counted as a change at the next check, never missed.
 */
export async function scheduleRevision(
  db: Kysely<Database>,
  since?: string,
): Promise<{ token: string; changed: boolean }> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    if (since === undefined) {
      const { rows } = await sql<{ token: string }>`
        select pg_current_snapshot()::text as token`.execute(db);
      return { token: rows[0]?.token ?? '', changed: true };
    }
    const { rows } = await sql<{ token: string; changed: boolean }>`
      select pg_current_snapshot()::text as token,
        pg_snapshot_xmin(${since}::pg_snapshot) < (
          select xid from schedule_change_horizon where id = 1
        ) or exists (
          select 1 from schedule_change
          where xid >= pg_snapshot_xmin(${since}::pg_snapshot)
            and not pg_visible_in_snapshot(xid, ${since}::pg_snapshot)
        ) as changed`.execute(db);
    const row = rows[0];
    return { token: row?.token ?? '', changed: row?.changed ?? true };
  }
  const { revision } = await db
    .selectFrom('schedule_revision')
    .select('revision')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  const token = String(revision);
  return { token, changed: token !== since };
}

/** How often an instance prunes PostgreSQL's record of writing transactions. */
export const PRUNE_SCHEDULE_CHANGES_MS = 60 * 60 * 1000;

/**
 * Empties PostgreSQL's record of writing transactions (one row each, migration 0016) of those
 * that ended before every running transaction began, and moves its horizon there, in one
 * statement: a token read under an older snapshot then counts as changed, whatever it did not
 * see. Without it the record grows by a row a booking, cancellation or refund, for good. Any
 * instance may run it at any time: each run only moves the horizon forward. SQLite's record is
 * one row: nothing to prune.
 */
export async function pruneScheduleChanges(db: Kysely<Database>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    with horizon as (
      update schedule_change_horizon
      set xid = greatest(xid, pg_snapshot_xmin(pg_current_snapshot()))
      where id = 1
      returning xid
    )
    delete from schedule_change where xid < (select xid from horizon)`.execute(db);
}

/** At most this many bytes of answers are kept, per instance. */
const KEPT_BYTES = 16_000_000;

/**
 * The schedule's answers this instance wrote, each kept as the bytes it sends (encoded once
 * rather than at every request) with the token of the database's state it was read from, and given
 * again for as long as `scheduleRevision` says no booking or refund changed since; the least
 * recently asked are forgotten first.
 */
export function scheduleAnswerCache(db: Kysely<Database>) {
  const kept = new Map<string, { token: string; body: Buffer }>();
  let bytes = 0;
  const forget = (key: string) => {
    const entry = kept.get(key);
    if (entry === undefined) return;
    bytes -= entry.body.length;
    kept.delete(key);
  };
  return {
    /** The answer for `key`: the kept one while nothing changed, else `write`'s, then kept. */
    async answer(key: string, write: () => Promise<string>): Promise<Buffer> {
      const entry = kept.get(key);
      const now = await scheduleRevision(db, entry?.token);
      forget(key);
      if (entry !== undefined && !now.changed) {
        // A later token that vouches for the same answer: the next check looks at less.
        entry.token = now.token;
        kept.set(key, entry);
        bytes += entry.body.length;
        return entry.body;
      }
      const body = Buffer.from(await write());
      if (body.length > KEPT_BYTES) return body;
      kept.set(key, { token: now.token, body });
      bytes += body.length;
      for (const oldest of kept.keys()) {
        if (bytes <= KEPT_BYTES) break;
        forget(oldest);
      }
      return body;
    },
  };
}

import { CompiledQuery, type Kysely } from 'kysely';
import type { DatabaseHandle } from './database.js';
import type { Database } from './schema.js';

/** Runs `work` in a transaction of its own and answers what it answers, once committed. */
export type Transact = <T>(work: (tx: Kysely<Database>) => Promise<T>) => Promise<T>;

// Each transaction's savepoint, written once: Kysely's savepoint calls build and compile these
// statements anew for every booking.
const SAVEPOINT = CompiledQuery.raw('savepoint "job"');
const ROLLBACK_TO_SAVEPOINT = CompiledQuery.raw('rollback to savepoint "job"');
const RELEASE_SAVEPOINT = CompiledQuery.raw('release savepoint "job"');

interface Job {
  work: (tx: Kysely<Database>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

/**
 * Transactions for the busiest writes (bookings). On SQLite, every commit waits for the disk
 * (`synchronous = FULL`) while holding the event loop, which bounded bookings to one per fsync
 * (docs/performance.md). Here the transactions that arrive while the database is busy are run
 * one after the other inside one SQLite transaction, each under a savepoint of its own, and
 * committed together: one fsync for all of them. Each keeps its own outcome: one that throws
 * is rolled back to its savepoint and rejects alone, the others are kept. None is answered
 * before the commit that holds it, so an acknowledged write is as durable as before.
 *
 * A transaction's work must use only the `tx` it is given (the connection is held meanwhile).
 * PostgreSQL commits concurrent transactions on their own connections: there, each is a plain
 * transaction.
 */
export function groupCommit(database: DatabaseHandle): Transact {
  const { db } = database;
  if (database.engine === 'postgres') {
    return (work) => db.transaction().execute(work);
  }
  let waiting: Job[] = [];
  let scheduled = false;

  async function commitWaiting(): Promise<void> {
    scheduled = false;
    const jobs = waiting;
    waiting = [];
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      const trx = await db.startTransaction().execute();
      try {
        for (const job of jobs) {
          await trx.executeQuery(SAVEPOINT);
          try {
            outcomes.push({ ok: true, value: await job.work(trx) });
          } catch (error) {
            await trx.executeQuery(ROLLBACK_TO_SAVEPOINT);
            outcomes.push({ ok: false, error });
          }
          await trx.executeQuery(RELEASE_SAVEPOINT);
        }
        await trx.commit().execute();
      } catch (error) {
        await trx.rollback().execute();
        throw error;
      }
    } catch (error) {
      // The group's own transaction failed (begin or commit): nothing of it was kept.
      for (const job of jobs) job.reject(error);
      return;
    }
    jobs.forEach((job, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok) job.resolve(outcome.value);
      else job.reject(outcome?.error);
    });
  }

  return (work) =>
    new Promise((resolve, reject) => {
      waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        // After the requests already read from the sockets have queued theirs.
        setImmediate(() => void commitWaiting());
      }
    });
}

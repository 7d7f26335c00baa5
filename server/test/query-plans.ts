import { CompiledQuery, type Insertable, type Kysely } from 'kysely';
import type { Database } from '../src/db/schema.js';
import { engine } from './helper.js';

/**
 * The engine's own plan of a query, one line a step: SQLite's `explain query plan` details, or
 * PostgreSQL's `explain` lines. What the tests of a query's indexes read.
 */
export async function queryPlan(db: Kysely<Database>, query: CompiledQuery): Promise<string> {
  const prefix = engine === 'sqlite' ? 'explain query plan ' : 'explain ';
  const result = await db.executeQuery(
    CompiledQuery.raw(`${prefix}${query.sql}`, [...query.parameters]),
  );
  return result.rows
    .map((row) =>
      String((row as Record<string, unknown>).detail ?? Object.values(row as object)[0]),
    )
    .join('\n');
}

/** Stores many rows, 500 a statement: enough for a planner to weigh an index as on a clinic's data. */
export async function insertRows<Table extends keyof Database>(
  db: Kysely<Database>,
  table: Table,
  rows: Insertable<Database[Table]>[],
): Promise<void> {
  for (let at = 0; at < rows.length; at += 500) {
    await db
      .insertInto(table)
      .values(rows.slice(at, at + 500) as never)
      .execute();
  }
}

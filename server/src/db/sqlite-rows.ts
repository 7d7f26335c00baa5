import type SQLite from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';

/**
 * A statement whose rows are read as arrays and made into objects here. better-sqlite3 builds
 * each row object in C++, one property at a time across the boundary into JavaScript: three
 * bookings of twenty columns took 19 to 22 µs that way and 15 µs as arrays made into objects
 * (docs/performance.md). The objects are the same: a key per column in the statement's order,
 * the later of two same-named columns winning. A statement that writes is returned as it is.
 * Its column names are read once: the caller lets it go when this connection changes the schema
 * (db/database.ts), and a column added or dropped by another connection is noticed here.
 */
export function withPlainRows(statement: SQLite.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  const arrays = statement.raw(true);
  const columnNames = () => arrays.columns().map((column) => column.name);
  let names = columnNames();
  const toObject = (values: unknown[]) => {
    // Another connection added or dropped a column since: SQLite prepared the statement again.
    if (values.length !== names.length) names = columnNames();
    const row: Record<string, unknown> = {};
    for (let index = 0; index < names.length; index++) row[names[index] as string] = values[index];
    return row;
  };
  return {
    reader: true,
    all: (parameters) => (arrays.all(parameters) as unknown[][]).map(toObject),
    run: (parameters) => arrays.run(parameters),
    *iterate(parameters) {
      for (const values of arrays.iterate(parameters) as Iterable<unknown[]>)
        yield toObject(values);
    },
  };
}

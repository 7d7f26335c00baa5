/**
 * A statement that broke a unique index, as either engine reports it: PostgreSQL names the index
 * (SQLSTATE 23505, `constraint`); SQLite names the table and its columns ('UNIQUE constraint
 * failed: booking.date, booking.treatment_id, booking.slot'), for a primary key too, or the
 * index itself when it has an expression ("UNIQUE constraint failed: index 'booking_slot_unique'").
 */
export interface UniqueViolation {
  /** The index, on PostgreSQL. */
  index: string | null;
  /** The table and the index's columns in alphabetical order, on SQLite. */
  table: string | null;
  columns: string[];
}

/** The unique index a failed statement broke, or null when the error is something else. */
export function uniqueViolation(error: unknown): UniqueViolation | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, constraint, message } = error as {
    code?: unknown;
    constraint?: unknown;
    message?: unknown;
  };
  if (code === '23505') {
    return { index: typeof constraint === 'string' ? constraint : null, table: null, columns: [] };
  }
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const named = /^UNIQUE constraint failed: index '([^']+)'/.exec(
      typeof message === 'string' ? message : '',
    );
    if (named) return { index: named[1] ?? null, table: null, columns: [] };
    const qualified = (typeof message === 'string' ? message : '')
      .replace(/^UNIQUE constraint failed: /, '')
      .split(',')
      .map((column) => column.trim().split('.'));
    return {
      index: null,
      table: qualified[0]?.[0] ?? null,
      columns: qualified.flatMap(([, column]) => (column ? [column] : [])).sort(),
    };
  }
  return null;
}

/** Whether a failed statement broke a unique index (or a primary key), on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  return uniqueViolation(error) !== null;
}

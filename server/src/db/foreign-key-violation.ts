/**
 * Whether a failed statement referred to a row that is no longer there (a foreign key), as either
 * engine reports it: PostgreSQL's SQLSTATE 23503, SQLite's SQLITE_CONSTRAINT_FOREIGNKEY. A request
 * racing the removal of what it names (an account removed while its patient books) meets one.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

import type { Compilable, CompiledQuery, Insertable, Kysely } from 'kysely';

/**
 * What stands in for the arguments while the query is built: text that no value of a query's
 * own holds (a private-use character).
 */
const STAND_IN = '\uE000compiledOnce argument ';

/** What a compiled query's argument may be: a value either engine binds as it is. */
export type Argument = string | number | null;

/** The name each statement compiled once is prepared under on PostgreSQL, by its SQL text. */
const statementNames = new Map<string, string>();

/**
 * The name under which PostgreSQL prepares a statement compiled once, on each connection the
 * first time it runs there (db/database.ts, decision 029); undefined for any other SQL, which is
 * parsed and planned with each call. Only these are named: their texts are a fixed few, so the
 * statements a connection keeps are too.
 */
export function statementName(sql: string): string | undefined {
  return statementNames.get(sql);
}

/**
 * A query that Kysely builds and compiles once per database and then runs with each call's
 * arguments, in a transaction of that database too. Kysely builds, freezes and compiles a query
 * on every call; for the short statements that every signed-in request or every booking makes
 * that costs about as much as running them (docs/performance.md). `build` is called once, with a
 * stand-in (a text) for each argument, so it must use its arguments as values only: it may not
 * branch on them, make names of them or do arithmetic with them. Each parameter of the compiled
 * query that is a stand-in is then replaced by the argument it stands for; the query's own values
 * stay as they were. It must name the columns it reads: PostgreSQL prepares it (`statementName`),
 * and a prepared `select *` fails once a migration adds a column.
 */
export function compiledOnce<DB, Args extends Argument[], Row>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>,
): (db: Kysely<DB>, ...args: Args) => Promise<Row[]> {
  // By the database's adapter: made once per database, and shared by its transactions, which are
  // other Kysely instances.
  const compiled = new WeakMap<object, { query: CompiledQuery<Row>; slots: number[] }>();
  return async (db, ...args) => {
    const executor = db.getExecutor();
    // Plugins transform a query as it is built, and a database with plugins shares its adapter:
    // built and compiled on every call, as Kysely does, so that they see each one.
    if (executor.plugins.length > 0) return (await db.executeQuery(build(db, ...args))).rows;
    let entry = compiled.get(executor.adapter);
    if (!entry) {
      const standIns = args.map((_, index) => `${STAND_IN}${index}`) as unknown as Args;
      const query = build(db, ...standIns).compile();
      // The argument each parameter stands for, or -1 for a value of the query's own.
      const slots = query.parameters.map((value) =>
        typeof value === 'string' && value.startsWith(STAND_IN)
          ? Number(value.slice(STAND_IN.length))
          : -1,
      );
      const unused = standIns.findIndex((_, index) => !slots.includes(index));
      if (unused !== -1) throw new Error(`compiledOnce: argument ${unused} is not a parameter`);
      entry = { query, slots };
      compiled.set(executor.adapter, entry);
      if (!statementNames.has(query.sql)) {
        statementNames.set(query.sql, `compiled_${statementNames.size + 1}`);
      }
    }
    const { query, slots } = entry;
    const parameters = query.parameters.map((value, index) => {
      const slot = slots[index] as number;
      return slot === -1 ? value : args[slot];
    });
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}

/** A row of `columns` of a table: every one given, null where it has no value. */
export type RowOf<Table, Column extends keyof Table> = {
  [K in Column]-?: Exclude<Insertable<Table>[K & keyof Insertable<Table>], undefined>;
};

/** Any database, as a compiled insert sees it: its table is chosen by a type parameter. */
type AnyDatabase = Record<string, Record<string, Argument>>;

/**
 * An insert of rows into `table` that give `columns`, compiled once per database and per number
 * of rows (as `compiledOnce`) and run with the rows' values. Each row must give every column, so
 * that one compiled query serves all; a column the table lacks does not type-check.
 */
export function compiledInsertRows<T extends string, Column extends string>(
  table: T,
  columns: readonly Column[],
) {
  const byCount = new Map<number, ReturnType<typeof compile>>();
  const compile = (count: number) =>
    compiledOnce((db: Kysely<AnyDatabase>, ...values: Argument[]) =>
      db
        .insertInto(table)
        .values(
          Array.from({ length: count }, (_, row) =>
            Object.fromEntries(
              columns.map((column, index) => [column, values[row * columns.length + index]]),
            ),
          ),
        ),
    );
  return async <DB extends Record<T, Record<Column, unknown>>>(
    db: Kysely<DB>,
    rows: readonly RowOf<DB[T], Column>[],
  ): Promise<void> => {
    if (rows.length === 0) return;
    let insert = byCount.get(rows.length);
    if (!insert) {
      insert = compile(rows.length);
      byCount.set(rows.length, insert);
    }
    await insert(
      db as unknown as Kysely<AnyDatabase>,
      ...rows.flatMap((row) => columns.map((column) => row[column] as Argument)),
    );
  };
}

/** One row into `table` (as `compiledInsertRows`). */
export function compiledInsert<T extends string, Column extends string>(
  table: T,
  columns: readonly Column[],
) {
  const insertRows = compiledInsertRows(table, columns);
  return <DB extends Record<T, Record<Column, unknown>>>(
    db: Kysely<DB>,
    row: RowOf<DB[T], Column>,
  ): Promise<void> => insertRows(db, [row]);
}

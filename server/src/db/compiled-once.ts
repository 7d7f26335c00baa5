import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/**
 * What stands in for the arguments while the query is built: text that no value of a query's
 * own holds (a private-use character), and that either engine accepts should the query be run
 * as compiled (the query-plan tests explain it).
 */
const STAND_IN = '\uE000compiledOnce argument ';

/**
 * A query that Kysely builds and compiles once per database and then runs with each call's
 * arguments. Kysely builds, freezes and compiles a query on every call; for the short reads that
 * every signed-in request makes (the session, the patient's bookings) that cost about as much as
 * running them (docs/performance.md). `build` is called once, with a stand-in for each argument,
 * so it must use its arguments as values only: it may not branch on them or make names of them.
 * Each parameter of the compiled query that is a stand-in is then replaced by the argument it
 * stands for; the query's own values stay as they were. A Kysely plugin of `db` transforms the
 * query once, when it is compiled.
 */
export function compiledOnce<DB, Args extends string[], Row>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>,
): (db: Kysely<DB>, ...args: Args) => Promise<Row[]> {
  const compiled = new WeakMap<Kysely<DB>, { query: CompiledQuery<Row>; slots: number[] }>();
  return async (db, ...args) => {
    let entry = compiled.get(db);
    if (!entry) {
      const standIns = args.map((_, index) => `${STAND_IN}${index}`) as Args;
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
      compiled.set(db, entry);
    }
    const { query, slots } = entry;
    const parameters = query.parameters.map((value, index) => {
      const slot = slots[index] as number;
      return slot === -1 ? value : args[slot];
    });
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}

import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, engine, type TestDatabase } from '../../test/helper.js';
import {
  compiledInsert,
  compiledInsertRows,
  compiledOnce,
  statementName,
} from './compiled-once.js';
import { type DatabaseHandle, openDatabase } from './database.js';

interface Notes {
  note: { id: number; owner: string; kind: string; body: string | null };
}

describe(`a query compiled once (${engine})`, () => {
  let testDatabase: TestDatabase;
  let database: DatabaseHandle;
  let db: Kysely<Notes>;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await openDatabase(testDatabase.config);
    db = database.db as unknown as Kysely<Notes>;
    await sql`create table note (id integer primary key, owner text, kind text, body text)`.execute(
      db,
    );
    await db
      .insertInto('note')
      .values([
        { id: 1, owner: 'ana', kind: 'memo', body: 'floss' },
        { id: 2, owner: 'ana', kind: 'draft', body: 'brush' },
        { id: 3, owner: 'ben', kind: 'memo', body: 'rinse' },
        { id: 4, owner: 'ben', kind: 'memo', body: 'ana' },
      ])
      .execute();
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  const memosOf = compiledOnce((db: Kysely<Notes>, owner: string) =>
    db
      .selectFrom('note')
      .select(['id', 'body'])
      .where('owner', '=', owner)
      .where('kind', '=', 'memo')
      .orderBy('id'),
  );

  it("runs with each call's arguments, keeping the query's own values", async () => {
    expect(await memosOf(db, 'ana')).toEqual([{ id: 1, body: 'floss' }]);
    expect(await memosOf(db, 'ben')).toEqual([
      { id: 3, body: 'rinse' },
      { id: 4, body: 'ana' },
    ]);
    expect(await memosOf(db, 'nobody')).toEqual([]);
  });

  it('puts an argument used twice in both places', async () => {
    const mentioning = compiledOnce((db: Kysely<Notes>, name: string) =>
      db
        .selectFrom('note')
        .select('id')
        .where((eb) => eb.or([eb('owner', '=', name), eb('body', '=', name)]))
        .orderBy('id'),
    );
    expect((await mentioning(db, 'ana')).map((row) => row.id)).toEqual([1, 2, 4]);
  });

  it('takes numbers and nulls as arguments, as the engine binds them', async () => {
    const afterId = compiledOnce((db: Kysely<Notes>, id: number, body: string | null) =>
      db
        .selectFrom('note')
        .select('id')
        .where('id', '>', id)
        .where((eb) => eb('body', '=', eb.fn.coalesce(eb.val(body), eb.val('floss'))))
        .orderBy('id'),
    );
    expect(await afterId(db, 0, null)).toEqual([{ id: 1 }]);
    expect(await afterId(db, 2, 'rinse')).toEqual([{ id: 3 }]);
  });

  it('inserts rows of the given columns, nulls and numbers as they are', async () => {
    const addNote = compiledInsert('note', ['id', 'owner', 'kind', 'body']);
    await addNote(db, { id: 10, owner: 'cy', kind: 'memo', body: null });
    await addNote(db, { id: 11, owner: 'cy', kind: 'draft', body: 'polish' });
    const rows = await db
      .selectFrom('note')
      .selectAll()
      .where('owner', '=', 'cy')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 10, owner: 'cy', kind: 'memo', body: null },
      { id: 11, owner: 'cy', kind: 'draft', body: 'polish' },
    ]);
  });

  it('inserts any number of rows, each number compiled once', async () => {
    const addNotes = compiledInsertRows('note', ['id', 'owner', 'kind', 'body']);
    const note = (id: number) => ({ id, owner: 'di', kind: 'memo', body: `note ${id}` });
    await addNotes(db, [note(20), note(21), note(22)]);
    await addNotes(db, [note(23)]);
    await addNotes(db, []);
    await addNotes(db, [note(24), note(25), note(26)]);
    const rows = await db
      .selectFrom('note')
      .select(['id', 'body'])
      .where('owner', '=', 'di')
      .execute();
    expect(rows.map((row) => row.body).sort()).toEqual(
      [20, 21, 22, 23, 24, 25, 26].map((id) => `note ${id}`),
    );
  });

  it('is compiled once for the database and its transactions, and runs in the transaction', async () => {
    let builds = 0;
    const bodyOf = compiledOnce((db: Kysely<Notes>, id: number) => {
      builds += 1;
      return db.selectFrom('note').select('body').where('id', '=', id);
    });
    expect(await bodyOf(db, 1)).toEqual([{ body: 'floss' }]);
    await db.transaction().execute(async (tx) => {
      await tx.updateTable('note').set({ body: 'whiten' }).where('id', '=', 2).execute();
      expect(await bodyOf(tx, 2)).toEqual([{ body: 'whiten' }]);
    });
    await db.transaction().execute(async (tx) => {
      expect(await bodyOf(tx, 2)).toEqual([{ body: 'whiten' }]);
      await tx.updateTable('note').set({ body: 'brush' }).where('id', '=', 2).execute();
    });
    expect(builds).toBe(1);
  });

  it('is built on every call for a database with plugins, so that they see each query', async () => {
    const seen: string[] = [];
    const watching = db.withPlugin({
      transformQuery: ({ node }) => {
        seen.push(node.kind);
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    const ids = compiledOnce((db: Kysely<Notes>, owner: string) =>
      db.selectFrom('note').select('id').where('owner', '=', owner).orderBy('id'),
    );
    expect(await ids(watching, 'ana')).toEqual([{ id: 1 }, { id: 2 }]);
    expect(await ids(watching, 'ben')).toEqual([{ id: 3 }, { id: 4 }]);
    expect(seen).toEqual(['SelectQueryNode', 'SelectQueryNode']);
  });

  it.runIf(engine === 'postgres')(
    'is prepared under its name on each connection it runs on, and no other query is',
    async () => {
      const kinds = (db: Kysely<Notes>, owner: string) =>
        db.selectFrom('note').select('kind').where('owner', '=', owner).orderBy('id');
      const kindsOf = compiledOnce(kinds);
      const plain = db.selectFrom('note').select('kind').where('owner', '=', 'ana');
      const prepared = await db.transaction().execute(async (tx) => {
        expect(await kindsOf(tx, 'ana')).toEqual([{ kind: 'memo' }, { kind: 'draft' }]);
        expect(await kindsOf(tx, 'ben')).toEqual([{ kind: 'memo' }, { kind: 'memo' }]);
        await tx.executeQuery(plain.compile());
        const { rows } = await sql<{ name: string; statement: string }>`
          select name, statement from pg_prepared_statements`.execute(tx);
        return rows;
      });
      const text = kinds(db, 'ana').compile().sql;
      expect(statementName(text)).toMatch(/^compiled_\d+$/);
      expect(prepared).toContainEqual({ name: statementName(text), statement: text });
      expect(statementName(plain.compile().sql)).toBeUndefined();
      expect(prepared.map((row) => row.statement)).not.toContain(plain.compile().sql);
    },
  );

  it.runIf(engine === 'postgres')(
    'is sent as a plain statement when prepared statements are turned off (an old pooler)',
    async () => {
      const { config } = testDatabase;
      if (config.engine !== 'postgres') throw new Error('a PostgreSQL test');
      const plainDatabase = await openDatabase({ ...config, preparedStatements: false });
      try {
        const plainDb = plainDatabase.db as unknown as Kysely<Notes>;
        const prepared = await plainDb.transaction().execute(async (tx) => {
          expect(await memosOf(tx, 'ben')).toEqual([
            { id: 3, body: 'rinse' },
            { id: 4, body: 'ana' },
          ]);
          const { rows } = await sql<{ name: string }>`
            select name from pg_prepared_statements`.execute(tx);
          return rows;
        });
        expect(prepared).toEqual([]);
      } finally {
        await plainDatabase.close();
      }
    },
  );

  it('refuses a query that does not take an argument as a value', async () => {
    const ignoring = compiledOnce((db: Kysely<Notes>, _owner: string) =>
      db.selectFrom('note').select('id'),
    );
    await expect(ignoring(db, 'ana')).rejects.toThrow('argument 0 is not a parameter');
  });
});

import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, engine, type TestDatabase } from '../../test/helper.js';
import { compiledOnce } from './compiled-once.js';
import { type DatabaseHandle, openDatabase } from './database.js';

interface Notes {
  note: { id: number; owner: string; kind: string; body: string };
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

  it('refuses a query that does not take an argument as a value', async () => {
    const ignoring = compiledOnce((db: Kysely<Notes>, _owner: string) =>
      db.selectFrom('note').select('id'),
    );
    await expect(ignoring(db, 'ana')).rejects.toThrow('argument 0 is not a parameter');
  });
});

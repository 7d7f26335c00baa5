import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, engine, type TestDatabase } from '../../test/helper.js';
import { type DatabaseHandle, openDatabase } from './database.js';
import { groupCommit, type Transact } from './group-commit.js';

describe(`transactions through group commit (${engine})`, () => {
  let testDatabase: TestDatabase;
  let database: DatabaseHandle;
  let transact: Transact;

  const bodies = async () =>
    (
      await sql<{ body: string }>`select body from note order by body`.execute(database.db)
    ).rows.map((row) => row.body);
  const write = (body: string) =>
    transact((tx) => sql`insert into note (body) values (${body})`.execute(tx));

  beforeEach(async () => {
    testDatabase = await createTestDatabase();
    database = await openDatabase(testDatabase.config);
    await sql`create table note (body text primary key)`.execute(database.db);
    transact = groupCommit(database);
  });

  afterEach(async () => {
    await database.close();
    await testDatabase.drop();
  });

  it('commits every transaction of a burst, each answering its own result', async () => {
    const names = Array.from({ length: 25 }, (_, i) => `note-${String(i).padStart(2, '0')}`);
    const answers = await Promise.all(
      names.map((name) =>
        transact(async (tx) => {
          await sql`insert into note (body) values (${name})`.execute(tx);
          return name.toUpperCase();
        }),
      ),
    );
    expect(answers).toEqual(names.map((name) => name.toUpperCase()));
    expect(await bodies()).toEqual(names);
  });

  it('rolls back only the transaction that failed, which rejects with its own error', async () => {
    await write('taken');
    const outcomes = await Promise.allSettled([
      write('first'),
      transact(async (tx) => {
        await sql`insert into note (body) values (${'half-done'})`.execute(tx);
        await sql`insert into note (body) values (${'taken'})`.execute(tx);
      }),
      transact(async () => {
        throw new Error('changed its mind');
      }),
      write('last'),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toContain('changed its mind');
    expect(await bodies()).toEqual(['first', 'last', 'taken']);
  });

  it.runIf(engine === 'sqlite')(
    'commits a burst on SQLite in one transaction, not one each',
    async () => {
      const statement = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1'));
      const run = vi.spyOn(statement, 'run');
      await Promise.all(Array.from({ length: 20 }, (_, i) => write(`burst-${i}`)));
      const begins = run.mock.contexts.filter((context) =>
        /^begin/i.test((context as { source: string }).source),
      );
      expect(begins).toHaveLength(1);
      expect(await bodies()).toHaveLength(20);
    },
  );
});

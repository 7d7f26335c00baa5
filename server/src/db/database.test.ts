import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createTestDatabase, engine } from '../../test/helper.js';
import { openDatabase } from './database.js';

// PostgreSQL only: SQLite has no server that could close a connection.
describe.runIf(engine === 'postgres')('a PostgreSQL connection closed by the server', () => {
  it('is replaced, and the portal keeps answering', async () => {
    const testDatabase = await createTestDatabase();
    const database = await openDatabase(testDatabase.config);
    try {
      await database.ping();
      const admin = new pg.Client({ connectionString: process.env.TEST_PG_URL });
      await admin.connect();
      const name = new URL((testDatabase.config as { url: string }).url).pathname.slice(1);
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1',
        [name],
      );
      await admin.end();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
      await testDatabase.drop();
    }
  });
});

describe.runIf(engine === 'sqlite')('SQLite statements', () => {
  it('are prepared once per SQL text and reused, and follow a change of schema', async () => {
    const testDatabase = await createTestDatabase();
    const database = await openDatabase(testDatabase.config);
    const prepare = vi.spyOn(SQLite.prototype, 'prepare');
    try {
      await sql`create table note (id integer primary key, body text)`.execute(database.db);
      const insert = (body: string) =>
        database.db
          .insertInto('note' as never)
          .values({ body } as never)
          .execute();
      const read = () =>
        sql<{ id: number; body: string }>`select * from note order by id`.execute(database.db);
      for (const body of ['a', 'b', 'c']) await insert(body);
      expect((await read()).rows.map((row) => row.body)).toEqual(['a', 'b', 'c']);
      expect((await read()).rows).toHaveLength(3);
      const texts = prepare.mock.calls.map(([text]) => text);
      expect(texts.filter((text) => text.startsWith('insert into'))).toHaveLength(1);
      expect(texts.filter((text) => text.startsWith('select * from note'))).toHaveLength(1);

      await sql`alter table note add column author text`.execute(database.db);
      expect((await read()).rows[0]).toEqual({ id: 1, body: 'a', author: null });
      await sql`alter table note rename column body to text`.execute(database.db);
      expect((await read()).rows[0]).toEqual({ id: 1, text: 'a', author: null });
    } finally {
      await database.close();
      await testDatabase.drop();
    }
  });
});

/** The temporary files this process holds open that SQLite made (it names them etilqs_…). */
function sqliteTemporaryFiles(): string[] {
  return fs
    .readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.includes('etilqs_'));
}

describe.runIf(engine === 'sqlite' && process.platform === 'linux')('SQLite savepoints', () => {
  it('keep their undo record in memory, however much they change: no temporary file', async () => {
    const testDatabase = await createTestDatabase();
    const database = await openDatabase(testDatabase.config);
    try {
      await sql`create table note (id integer primary key, body text)`.execute(database.db);
      const before = 'x'.repeat(2000);
      for (let row = 0; row < 200; row += 1) {
        await sql`insert into note (body) values (${before})`.execute(database.db);
      }
      await database.db.transaction().execute(async (tx) => {
        await sql`savepoint booking`.execute(tx);
        // Every page of the table changed: far more than the 64 KB of original pages SQLite
        // keeps in memory by default before it opens a file for them.
        await sql`update note set body = 'changed'`.execute(tx);
        expect(sqliteTemporaryFiles()).toEqual([]);
        await sql`rollback to savepoint booking`.execute(tx);
        await sql`release savepoint booking`.execute(tx);
      });
      const { rows } = await sql<{ body: string }>`select distinct body from note`.execute(
        database.db,
      );
      expect(rows).toEqual([{ body: before }]);
    } finally {
      await database.close();
      await testDatabase.drop();
    }
  });
});

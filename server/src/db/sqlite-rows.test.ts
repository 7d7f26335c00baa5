import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { withPlainRows } from './sqlite-rows.js';

const database = new SQLite(':memory:');
database.exec(`
  create table visit (id text primary key, patient text, minutes integer, paid_at text, photo blob);
  insert into visit values ('a', 'Ana', 30, null, x'0102'), ('b', 'Bo', 45, '2026-11-27', null);
`);
afterAll(() => database.close());

/** The same query as better-sqlite3's own objects and through `withPlainRows`. */
function bothWays(sql: string, parameters: unknown[] = []) {
  return {
    theirs: database.prepare(sql).all(parameters),
    ours: withPlainRows(database.prepare(sql)).all(parameters),
  };
}

describe('withPlainRows', () => {
  it.each([
    ['select * from visit order by id', []],
    ['select patient, minutes * 2 as doubled, paid_at from visit where id = ?', ['b']],
    ['select id, patient as id from visit', []],
    ['select * from visit where id = ?', ['none']],
    ['select photo, photo is null as missing from visit', []],
  ])('reads %s into the objects better-sqlite3 makes', (sql, parameters) => {
    const { theirs, ours } = bothWays(sql, parameters);
    expect(ours).toEqual(theirs);
    expect(ours.map((row) => Object.keys(row as object))).toEqual(
      theirs.map((row) => Object.keys(row as object)),
    );
  });

  it('follows a column added after it was prepared', () => {
    const other = new SQLite(':memory:');
    try {
      other.exec('create table note (id integer primary key); insert into note values (1)');
      const statement = withPlainRows(other.prepare('select * from note'));
      expect(statement.all([])).toEqual([{ id: 1 }]);
      other.exec("alter table note add column body text default 'a'");
      expect(statement.all([])).toEqual([{ id: 1, body: 'a' }]);
    } finally {
      other.close();
    }
  });

  it('iterates the same rows', () => {
    const sql = 'select id, minutes from visit order by id';
    const rows = [...withPlainRows(database.prepare(sql)).iterate([])];
    expect(rows).toEqual(database.prepare(sql).all());
  });

  it('leaves a statement that writes as it is', () => {
    const statement = database.prepare('update visit set minutes = minutes where id = ?');
    expect(withPlainRows(statement)).toBe(statement);
    expect(withPlainRows(statement).run(['a'])).toMatchObject({ changes: 1 });
  });
});

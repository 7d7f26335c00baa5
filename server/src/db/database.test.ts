import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
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

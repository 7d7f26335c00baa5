import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, engine, type TestDatabase } from '../../test/helper.js';
import { type DatabaseHandle, openDatabase } from './database.js';
import { demoTreatments } from './demo-data.js';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';
import { seedDemoData } from './seed.js';

/** Tables, columns and indexes as the engine reports them, in a stable order. */
async function describeSchema(db: Kysely<Database>): Promise<unknown> {
  if (engine === 'sqlite') {
    const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
      select type, name, sql from sqlite_master order by type, name`.execute(db);
    return rows;
  }
  const columns = await sql`
    select table_name, column_name, data_type, is_nullable from information_schema.columns
    where table_schema = 'public' order by table_name, column_name`.execute(db);
  const indexes = await sql`
    select tablename, indexname, indexdef from pg_indexes
    where schemaname = 'public' order by tablename, indexname`.execute(db);
  return [columns.rows, indexes.rows];
}

describe(`migrations and seed (${engine})`, () => {
  let testDatabase: TestDatabase;
  let database: DatabaseHandle;

  beforeEach(async () => {
    testDatabase = await createTestDatabase();
    database = await openDatabase(testDatabase.config);
  });
  afterEach(async () => {
    await database.close();
    await testDatabase.drop();
  });

  it('applied twice, change nothing the second time', async () => {
    const first = await migrateToLatest(database.db);
    expect(first.map((m) => m.status)).toEqual(first.map(() => 'Success'));
    const schema = await describeSchema(database.db);

    expect(await migrateToLatest(database.db)).toEqual([]);
    expect(await describeSchema(database.db)).toEqual(schema);
  });

  // Several instances share a database only on PostgreSQL; SQLite serves one process.
  it.runIf(engine === 'postgres')('applied by two instances at once, run once', async () => {
    const other = await openDatabase(testDatabase.config);
    try {
      const [a, b] = await Promise.all([migrateToLatest(database.db), migrateToLatest(other.db)]);
      // Every migration ran exactly once, by one instance or the other.
      const applied = [...a, ...b].map((result) => result.migrationName);
      expect(applied).toContain('0001_initial');
      expect(applied).toHaveLength(new Set(applied).size);
      expect(await migrateToLatest(database.db)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('seed run twice leaves the same rows', async () => {
    await migrateToLatest(database.db);
    expect(await seedDemoData(database.db)).toEqual({ inserted: demoTreatments.length });
    const rows = await database.db.selectFrom('treatment').selectAll().orderBy('id').execute();

    expect(await seedDemoData(database.db)).toEqual({ inserted: 0 });
    expect(await database.db.selectFrom('treatment').selectAll().orderBy('id').execute()).toEqual(
      rows,
    );
  });

  it('seeds treatments whose slots all lie inside the opening hours', async () => {
    await migrateToLatest(database.db);
    await seedDemoData(database.db);
    const rows = await database.db.selectFrom('treatment').selectAll().execute();
    expect(rows.length).toBeGreaterThanOrEqual(6);
    for (const row of rows) {
      const slots = JSON.parse(row.slots) as string[];
      expect(slots.length).toBeGreaterThan(0);
      expect(Number.isInteger(row.price_cents)).toBe(true);
      for (const slot of slots) {
        expect(slot).toMatch(/^(1[0-2]|[1-9]):[0-5]\d (AM|PM) - (1[0-2]|[1-9]):[0-5]\d (AM|PM)$/);
      }
    }
  });

  describe('booking rules held by the database', () => {
    const booking = (overrides: Partial<Record<string, unknown>>) => ({
      id: crypto.randomUUID(),
      treatment_id: 'teeth-cleaning',
      treatment_name: 'Teeth Cleaning',
      price_cents: 8000,
      date: '2030-01-05',
      slot: '10:00 AM - 10:30 AM',
      patient_id: null,
      patient_email: 'ana@example.com',
      patient_name: 'Ana',
      phone: '+1 555 0100',
      age: 30,
      created_at: new Date().toISOString(),
      paid_at: null,
      transaction_id: null,
      ...overrides,
    });

    beforeEach(async () => {
      await migrateToLatest(database.db);
      await seedDemoData(database.db);
      await database.db.insertInto('booking').values(booking({})).execute();
    });

    it('refuses a second booking of the same slot of a treatment on a date', async () => {
      await expect(
        database.db
          .insertInto('booking')
          .values(booking({ patient_email: 'ben@example.com' }))
          .execute(),
      ).rejects.toThrow(/unique/i);
    });

    it('refuses a second booking of a treatment on a date by the same patient', async () => {
      await expect(
        database.db
          .insertInto('booking')
          .values(booking({ slot: '10:30 AM - 11:00 AM' }))
          .execute(),
      ).rejects.toThrow(/unique/i);
    });

    it('allows the same slot on another date and another treatment in the same slot', async () => {
      await database.db
        .insertInto('booking')
        .values(booking({ date: '2030-01-06' }))
        .execute();
      await database.db
        .insertInto('booking')
        .values(
          booking({ treatment_id: 'fluoride-treatment', treatment_name: 'Fluoride Treatment' }),
        )
        .execute();
    });
  });
});

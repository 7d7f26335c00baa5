import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clinicDay } from '../../test/dates.js';
import { createTestDatabase, engine, type TestDatabase } from '../../test/helper.js';
import { type DatabaseHandle, openDatabase } from './database.js';
import { demoTreatments } from './demo-data.js';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';
import { seedDemoData } from './seed.js';

/** An account as the auth library stores it, with no password: enough to own bookings. */
async function insertUser(db: Kysely<Database>, user: { id: string; name: string; email: string }) {
  const now = new Date().toISOString();
  await sql`insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
    values (${user.id}, ${user.name}, ${user.email}, ${sql.raw(engine === 'postgres' ? 'true' : '1')}, ${now}, ${now})`.execute(
    db,
  );
}

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
    const ana = crypto.randomUUID();
    const ben = crypto.randomUUID();
    const booking = (overrides: Partial<Record<string, unknown>>) => ({
      id: crypto.randomUUID(),
      treatment_id: 'teeth-cleaning',
      treatment_name: 'Teeth Cleaning',
      price_cents: 8000,
      date: clinicDay(-361),
      slot: '10:00 AM - 10:30 AM',
      patient_id: ana,
      patient_email: 'ana@example.com',
      patient_name: 'Ana',
      phone: '+1 555 0100',
      age: 30,
      created_at: new Date().toISOString(),
      paid_at: null,
      transaction_id: null,
      ...overrides,
    });
    const insert = (overrides: Partial<Record<string, unknown>>) =>
      database.db.insertInto('booking').values(booking(overrides)).execute();

    beforeEach(async () => {
      await migrateToLatest(database.db);
      await seedDemoData(database.db);
      for (const [id, name] of [
        [ana, 'Ana'],
        [ben, 'Ben'],
      ] as const) {
        await insertUser(database.db, { id, name, email: `${name.toLowerCase()}@example.com` });
      }
      await insert({});
    });

    it('refuses a second booking of the same slot of a treatment on a date', async () => {
      await expect(insert({ patient_id: ben, patient_email: 'ben@example.com' })).rejects.toThrow(
        /unique/i,
      );
    });

    it('refuses a second booking of a treatment on a date by the same account', async () => {
      await expect(insert({ slot: '10:30 AM - 11:00 AM' })).rejects.toThrow(/unique/i);
      // Whatever address the booking carries: the account is what counts.
      await expect(
        insert({ slot: '10:30 AM - 11:00 AM', patient_email: 'other@example.com' }),
      ).rejects.toThrow(/unique/i);
    });

    it('allows the same slot on another date and another treatment in the same slot', async () => {
      await insert({ date: clinicDay(-360) });
      await insert({ treatment_id: 'fluoride-treatment', treatment_name: 'Fluoride Treatment' });
    });

    it('lets a cancelled booking free its slot and its patient’s treatment that day', async () => {
      await database.db
        .updateTable('booking')
        .set({ status: 'cancelled' })
        .where('patient_id', '=', ana)
        .execute();
      await insert({ patient_id: ben, patient_email: 'ben@example.com' });
      await insert({ slot: '11:00 AM - 11:30 AM' });
    });

    it('refuses a second hold of a time unit by the same patient on a date', async () => {
      const unit = { booking_id: crypto.randomUUID(), patient_id: ana, date: clinicDay(-361) };
      const first = await database.db
        .selectFrom('booking')
        .select('id')
        .where('patient_id', '=', ana)
        .executeTakeFirstOrThrow();
      await database.db
        .insertInto('booking_unit')
        .values({ ...unit, booking_id: first.id, unit: 120 })
        .execute();
      await insert({ id: unit.booking_id, treatment_id: 'fluoride-treatment' });
      await expect(
        database.db
          .insertInto('booking_unit')
          .values({ ...unit, unit: 120 })
          .execute(),
      ).rejects.toThrow(/unique/i);
      // Another patient may hold the same unit.
      await insert({ id: crypto.randomUUID(), patient_id: ben, slot: '11:00 AM - 11:30 AM' });
    });
  });

  it('upgrades a database of the previous release in place, losing nothing', async () => {
    await migrateToLatest(database.db, '0003_mail_queue');
    await seedDemoData(database.db);
    const patient = crypto.randomUUID();
    await insertUser(database.db, { id: patient, name: 'Ana', email: 'ana@example.com' });
    const old = (fields: Record<string, unknown>) => ({
      id: crypto.randomUUID(),
      treatment_id: 'teeth-cleaning',
      treatment_name: 'Teeth Cleaning',
      price_cents: 8000,
      date: clinicDay(-361),
      slot: '10:00 AM - 10:30 AM',
      patient_id: patient,
      patient_email: 'ana@example.com',
      patient_name: 'Ana',
      phone: '+1 555 0100',
      age: 30,
      created_at: new Date().toISOString(),
      paid_at: null,
      transaction_id: null,
      ...fields,
    });
    const paid = old({ paid_at: '2029-12-01T10:00:00.000Z', transaction_id: 'pi_demo_x' });
    // Two bookings of one patient at overlapping times, as the previous release allowed.
    const clash = old({ treatment_id: 'fluoride-treatment', treatment_name: 'Fluoride Treatment' });
    const removed = old({
      date: clinicDay(-360),
      patient_id: null,
      patient_email: 'gone@example.com',
    });
    await sql`insert into booking (id, treatment_id, treatment_name, price_cents, date, slot,
      patient_id, patient_email, patient_name, phone, age, created_at, paid_at, transaction_id)
      values ${sql.join(
        [paid, clash, removed].map(
          (row) => sql`(${sql.join(Object.values(row).map((value) => sql`${value}`))})`,
        ),
      )}`.execute(database.db);

    expect((await migrateToLatest(database.db)).map((m) => m.migrationName)).toContain(
      '0004_booking_ownership',
    );

    const rows = await database.db.selectFrom('booking').selectAll().orderBy('date').execute();
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.status).toBe('booked');
    const paidRow = rows.find((row) => row.id === paid.id);
    expect(paidRow).toMatchObject({ paid_at: paid.paid_at, transaction_id: 'pi_demo_x' });
    const units = await database.db.selectFrom('booking_unit').selectAll().execute();
    // The first booking holds its six units; the clashing one could not take them too.
    expect(units.filter((unit) => unit.booking_id === paid.id)).toHaveLength(6);
    expect(units.filter((unit) => unit.booking_id === clash.id)).toHaveLength(0);
    expect(units.filter((unit) => unit.booking_id === removed.id)).toHaveLength(0);
  });
});

import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, engine, type TestDatabase } from '../../test/helper.js';
import { type DatabaseHandle, PG_POOL_SIZE } from '../db/database.js';
import { prepareDatabase } from '../db/prepare.js';
import type { Database } from '../db/schema.js';
import {
  BOOKING_RULES_SETTING,
  bookingRulesWithin,
  cachedClinicCalendar,
  defaultRules,
  forgetClinicCalendar,
  setDefaultRules,
} from './calendar.js';

/**
 * The clinic's calendar and rules are kept for a few seconds per database, and booking events
 * read them from inside a booking's transaction, when every connection may be taken.
 */
describe(`the clinic's calendar, cached (${engine})`, () => {
  let testDatabase: TestDatabase;
  let database: DatabaseHandle;
  let db: Kysely<Database>;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await prepareDatabase(testDatabase.config);
    db = database.db;
    setDefaultRules(db, { ...defaultRules(db), reminderLeadHours: 48, horizonDays: 90 });
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });
  beforeEach(() => forgetClinicCalendar(db));

  it('is read by transactions holding every connection while a read through the pool waits', async () => {
    const connections = engine === 'postgres' ? PG_POOL_SIZE : 1;
    let opened = 0;
    let allOpen: () => void = () => {};
    const everyConnectionTaken = new Promise<void>((resolve) => {
      allOpen = resolve;
    });
    let poolRead: Promise<unknown> = Promise.resolve();
    const leads = await Promise.all(
      Array.from({ length: connections }, () =>
        db.transaction().execute(async (tx) => {
          await sql`select 1`.execute(tx);
          if (++opened === connections) {
            // No connection is left for it: it waits until a transaction ends.
            poolRead = cachedClinicCalendar(db);
            allOpen();
          }
          await everyConnectionTaken;
          return (await bookingRulesWithin(tx, db)).reminderLeadHours;
        }),
      ),
    );
    expect(leads).toEqual(Array(connections).fill(48));
    await expect(poolRead).resolves.toMatchObject({ storedRules: null });
  });

  it("completes rules the clinic stored in part with the database's defaults, in a transaction too", async () => {
    await db
      .insertInto('clinic_setting')
      .values({
        name: BOOKING_RULES_SETTING,
        value: JSON.stringify({ horizonDays: 30 }),
        updated_at: new Date().toISOString(),
        updated_by: null,
      })
      .execute();
    const inTransaction = await db.transaction().execute((tx) => bookingRulesWithin(tx, db));
    expect(inTransaction).toMatchObject({ horizonDays: 30, reminderLeadHours: 48 });
    const cached = await cachedClinicCalendar(db);
    expect(cached.storedRules).toEqual(inTransaction);
    await db.deleteFrom('clinic_setting').execute();
  });

  it('is read once while fresh, and again once stale', async () => {
    const at = Date.now();
    const first = cachedClinicCalendar(db, at);
    expect(cachedClinicCalendar(db, at + 1)).toBe(first);
    await first;
    await expect(cachedClinicCalendar(db, at + 2)).resolves.toBe(await first);
    const later = cachedClinicCalendar(db, at + 60_000);
    expect(later).not.toBe(first);
    await later;
  });
});

import type { IsoDate } from '@doctors-portal/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { listTreatments } from '../treatments/repository.js';
import type { NewBooking } from './repository.js';

/** The measured day, three and a half years ahead; it holds three bookings of its own. */
const MEASURED = { medium: mediumDay(1277), iso: clinicDay(1277) };
const MEASURED_BOOKINGS = 3;
// 14 columns a row: SQLite binds at most 32,766 parameters a statement, PostgreSQL 65,535.
const BATCH = engine === 'sqlite' ? 200 : 1000;
const RUNS = 50;

type DaySlot = { id: string; name: string; slot: string };

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * `count` bookings filling whole days from the test clock's today on (skipping the measured day), then
 * the measured day's own few, all in batched multi-row inserts in one transaction.
 */
async function storeBookings(t: TestApp, daySlots: DaySlot[], count: number) {
  const booking = (index: number, date: IsoDate, kind: string): NewBooking => {
    const pair = daySlots[index % daySlots.length] ?? { id: '', name: '', slot: '' };
    return {
      id: `${kind}-${index}`,
      treatment_id: pair.id,
      treatment_name: pair.name,
      price_cents: 8000,
      date,
      slot: pair.slot,
      patient_id: null,
      patient_email: `${kind}-${index}@mail.com`,
      patient_name: `Patient ${index}`,
      phone: '+1 555 010 2030',
      age: 30,
      created_at: '2030-01-01T00:00:00.000Z',
      paid_at: null,
      transaction_id: null,
    };
  };
  const rows: NewBooking[] = [];
  for (let index = 0; index < count; index += 1) {
    const day = Math.floor(index / daySlots.length);
    const date = clinicDay(day) >= MEASURED.iso ? clinicDay(day + 1) : clinicDay(day);
    rows.push(booking(index, date, 'bulk'));
  }
  for (let index = 0; index < MEASURED_BOOKINGS; index += 1) {
    rows.push(booking(index, MEASURED.iso, 'measured'));
  }
  await t.db.transaction().execute(async (trx) => {
    for (let start = 0; start < rows.length; start += BATCH) {
      await trx
        .insertInto('booking')
        .values(rows.slice(start, start + BATCH))
        .execute();
    }
  });
  // What autovacuum does on a live PostgreSQL server after such a load.
  if (engine === 'postgres') await sql`analyze booking`.execute(t.db);
}

describe(`GET /api/available with many bookings stored (${engine})`, () => {
  // Two portals side by side, one with 1,000 bookings and one with 100,000. Their requests
  // alternate, so whatever else the machine is doing weighs on both alike.
  let few: TestApp;
  let many: TestApp;
  let daySlots: DaySlot[];

  beforeAll(async () => {
    // A horizon past the measured day, which answers its slots only within it.
    const env = { BOOKING_HORIZON_DAYS: '1500' };
    [few, many] = await Promise.all([buildTestApp({ env }), buildTestApp({ env })]);
    const treatments = await listTreatments(few.db);
    daySlots = treatments.flatMap((treatment) =>
      treatment.slots.map((slot) => ({ id: treatment.id, name: treatment.name, slot })),
    );
    await storeBookings(few, daySlots, 1_000);
    await storeBookings(many, daySlots, 100_000);
  }, 120_000);
  afterAll(async () => {
    await few?.close();
    await many?.close();
  });

  it('answers as fast with 100,000 bookings stored on other dates as with 1,000', async () => {
    const count = async (t: TestApp) =>
      Number(
        (
          await t.db
            .selectFrom('booking')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count(few)).toBe(1_000 + MEASURED_BOOKINGS);
    expect(await count(many)).toBe(100_000 + MEASURED_BOOKINGS);

    const url = `/api/available?date=${encodeURIComponent(MEASURED.medium)}`;
    const time = async (t: TestApp) => {
      const start = performance.now();
      const response = await t.app.inject(url);
      const ms = performance.now() - start;
      expect(response.statusCode).toBe(200);
      return { ms, body: response.body };
    };
    for (let warmUp = 0; warmUp < 10; warmUp += 1) {
      await time(few);
      await time(many);
    }
    const fewTimes: number[] = [];
    const manyTimes: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const a = await time(few);
      const b = await time(many);
      fewTimes.push(a.ms);
      manyTimes.push(b.ms);
      // The same answer: the measured day's own bookings are gone, nothing else.
      expect(b.body).toBe(a.body);
    }
    const { body } = await time(many);
    const free = (JSON.parse(body) as Array<{ slots: string[] }>).flatMap(
      (treatment) => treatment.slots,
    );
    expect(free).toHaveLength(daySlots.length - MEASURED_BOOKINGS);

    const fewMs = median(fewTimes);
    const manyMs = median(manyTimes);
    // biome-ignore lint/suspicious/noConsole: the figures are the point of this test.
    console.log(
      `availability (${engine}): 1k bookings p50 ${fewMs.toFixed(2)} ms, ` +
        `100k bookings p50 ${manyMs.toFixed(2)} ms`,
    );
    // Generous, for a shared machine: a cost that grew with the bookings would be ~100x.
    expect(manyMs).toBeLessThan(Math.max(fewMs * 3, 1));
  }, 60_000);
});

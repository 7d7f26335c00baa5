import { randomUUID } from 'node:crypto';
import type { IsoDate } from '@doctors-portal/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { type Patient, signedUpAdmin } from '../../test/payment-fixtures.js';
import type { NewBooking } from '../bookings/repository.js';

/**
 * `GET /api/schedule` with many bookings stored. Two portals side by side: one holds only the
 * two measured days, the other the same two days among other bookings, 100,000 in all (500 a
 * day, as a large clinic's ten chairs book them, over 200 days around today, for 2,000 patients,
 * each with a history of no-shows and cancellations); `SCHEDULE_SCALE_BOOKINGS=1000000` stores a
 * million (the figures in docs/performance.md). The catalogue is ten chairs of fifty 10-minute
 * slots, bulk-inserted with the bookings: a busy day holds 500 bookings, a quiet day 5. Each
 * day's schedule must answer within twice the time among all those bookings as without them:
 * what it costs is the day's own bookings, never the bookings stored for other days.
 *
 * The busy day against the quiet day: the schedule keeps its answers while no booking or
 * refund changes (answer-cache.ts, decision 026), so a day of 500 answers within twice a day of
 * 5, asserted from a million bookings stored (issue 14's acceptance; ×3 to ×6 when each request
 * read and wrote its day again). The first request after a change reads the day again: that
 * figure is reported, not asserted (docs/performance.md).
 */
const BOOKINGS = Number(process.env.SCHEDULE_SCALE_BOOKINGS ?? 100_000);
const PER_DAY = 500;
const PATIENTS = Math.max(1_000, Math.round(BOOKINGS / 50));
const RUNS = 40;
/** From this many bookings stored (`SCHEDULE_SCALE_BOOKINGS`), the busy day's ×2 is asserted. */
const ACCEPTANCE_BOOKINGS = 1_000_000;
const TOLERANCE_MS = 0.1;
/** 18 columns a row: SQLite binds at most 32,766 parameters a statement, PostgreSQL 65,535. */
const BATCH = engine === 'sqlite' ? 1_500 : 3_000;

/** Ten chairs of fifty 10-minute slots each, from 10:00 AM: 500 bookings fill a day. */
const CHAIRS = Array.from({ length: 10 }, (_, index) => `scale-chair-${index + 1}`);
function slotLabel(index: number): string {
  const label = (minutes: number) => {
    const hour = Math.floor(minutes / 60);
    const hour12 = ((hour + 11) % 12) + 1;
    return `${hour12}:${String(minutes % 60).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
  };
  const start = 10 * 60 + index * 10;
  return `${label(start)} - ${label(start + 10)}`;
}
const SLOTS = Array.from({ length: PER_DAY / CHAIRS.length }, (_, index) => slotLabel(index));

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The stored days lie around today; the busy and the quiet day after all of them. */
const days = Math.ceil(BOOKINGS / PER_DAY);
const FIRST_DAY = -Math.floor(days / 2);
const BUSY: IsoDate = clinicDay(FIRST_DAY + days + 5);
const QUIET: IsoDate = clinicDay(FIRST_DAY + days + 10);

async function seed(t: TestApp, background: number) {
  const now = new Date().toISOString();
  await t.db
    .insertInto('treatment')
    .values(
      CHAIRS.map((id, index) => ({
        id,
        name: `Chair ${index + 1}`,
        price_cents: 8000,
        slots: JSON.stringify(SLOTS),
        sort_order: 100 + index,
      })),
    )
    .execute();
  const patients = Array.from({ length: PATIENTS }, (_, index) => ({
    id: randomUUID(),
    name: `Scale Patient ${index + 1}`,
    email: `scale-${index + 1}@mail.com`,
  }));
  const started = Date.now();
  await t.db.transaction().execute(async (trx) => {
    for (let at = 0; at < patients.length; at += 1_000) {
      await trx
        .insertInto('user')
        .values(
          patients.slice(at, at + 1_000).map((patient) => ({
            ...patient,
            emailVerified: engine === 'postgres' ? true : 1,
            image: null,
            createdAt: now,
            updatedAt: now,
            role: null,
          })),
        )
        .execute();
    }
    const row = (index: number, date: IsoDate): NewBooking => {
      const place = index % PER_DAY;
      // Spread over the patients so that no patient holds a treatment twice on a day.
      const patient = patients[(index * 7919) % patients.length] ?? patients[0];
      // One in twenty a no-show, one in twenty cancelled: every patient has a history.
      const status = index % 20 === 7 ? 'no_show' : index % 20 === 13 ? 'cancelled' : 'booked';
      return {
        id: randomUUID(),
        treatment_id: CHAIRS[place % CHAIRS.length] ?? '',
        treatment_name: 'Chair',
        price_cents: 8000,
        date,
        slot: SLOTS[Math.floor(place / CHAIRS.length)] ?? '',
        patient_id: patient?.id ?? null,
        patient_email: patient?.email ?? '',
        patient_name: patient?.name ?? '',
        phone: '+1 555 010 2030',
        age: 30 + (index % 50),
        created_at: now,
        paid_at: index % 3 === 0 ? now : null,
        transaction_id: index % 3 === 0 ? `pi_demo_${index}` : null,
        status,
        ...(status === 'cancelled'
          ? { cancelled_at: now, cancelled_by: patient?.id ?? null, cancel_reason: 'Scale' }
          : {}),
      };
    };
    let batch: NewBooking[] = [];
    const add = async (booking: NewBooking) => {
      batch.push(booking);
      if (batch.length === BATCH) {
        await trx.insertInto('booking').values(batch).execute();
        batch = [];
      }
    };
    for (let index = 0; index < background; index += 1) {
      await add(row(index, clinicDay(FIRST_DAY + Math.floor(index / PER_DAY))));
    }
    // The measured days, alike in both portals.
    for (let index = 0; index < PER_DAY; index += 1) await add(row(index, BUSY));
    for (let index = 0; index < 5; index += 1) await add(row(index, QUIET));
    if (batch.length > 0) await trx.insertInto('booking').values(batch).execute();
  });
  // What autovacuum does on a live PostgreSQL server after such a load.
  if (engine === 'postgres') await sql`analyze booking`.execute(t.db);
  return (Date.now() - started) / 1000;
}

describe(`GET /api/schedule with ${BOOKINGS.toLocaleString('en-US')} bookings stored (${engine})`, () => {
  let few: TestApp;
  let many: TestApp;
  let fewAdmin: Patient;
  let manyAdmin: Patient;
  let seconds = 0;

  beforeAll(async () => {
    [few, many] = await Promise.all([buildTestApp(), buildTestApp()]);
    [fewAdmin, manyAdmin] = await Promise.all([signedUpAdmin(few), signedUpAdmin(many)]);
    await seed(few, 0);
    // The two measured days are part of the count.
    seconds = await seed(many, BOOKINGS - PER_DAY - 5);
  }, 1_800_000);
  afterAll(async () => {
    await few?.close();
    await many?.close();
  });

  it("answers a day's schedule as fast among all those bookings as without them", async () => {
    /**
     * Until the answer's last byte is received (235 KB for the busy day). The bytes are read as a client reads them, from
     * the response's stream: inject's default would also decode them into a string (0.2 to
     * 0.5 ms for these bodies, light-my-request's work, before it lets the answer finish).
     */
    const time = async (t: TestApp, admin: Patient, date: IsoDate) => {
      const start = performance.now();
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/schedule?from=${date}&to=${date}`,
        headers: { authorization: `Bearer ${admin.token}` },
        payloadAsStream: true,
      });
      const chunks: Buffer[] = [];
      for await (const chunk of response.stream()) chunks.push(chunk as Buffer);
      const ms = performance.now() - start;
      expect(response.statusCode).toBe(200);
      return { ms, bytes: Buffer.concat(chunks) };
    };
    const count = async (date: IsoDate) => {
      const { bytes } = await time(many, manyAdmin, date);
      return (JSON.parse(bytes.toString()) as { bookings: unknown[] }).bookings.length;
    };
    expect(await count(BUSY)).toBe(PER_DAY);
    expect(await count(QUIET)).toBe(5);
    for (let warmUp = 0; warmUp < 10; warmUp += 1) {
      for (const date of [BUSY, QUIET]) {
        await time(few, fewAdmin, date);
        await time(many, manyAdmin, date);
      }
    }
    const runs = {
      fewBusy: [] as number[],
      manyBusy: [] as number[],
      fewQuiet: [] as number[],
      manyQuiet: [] as number[],
    };
    for (let run = 0; run < RUNS; run += 1) {
      // Alternating, so that whatever else the machine is doing weighs on all alike.
      runs.fewBusy.push((await time(few, fewAdmin, BUSY)).ms);
      runs.manyBusy.push((await time(many, manyAdmin, BUSY)).ms);
      runs.fewQuiet.push((await time(few, fewAdmin, QUIET)).ms);
      runs.manyQuiet.push((await time(many, manyAdmin, QUIET)).ms);
    }
    // The first request after a booking changed, on a day of the clinic's history: the kept
    // answers are no longer vouched for, and each day is read again.
    const touched = await many.db
      .selectFrom('booking')
      .select('id')
      .where('date', '=', clinicDay(FIRST_DAY))
      .limit(1)
      .executeTakeFirstOrThrow();
    const afterChange = { manyBusy: [] as number[], manyQuiet: [] as number[] };
    for (let run = 0; run < RUNS / 2; run += 1) {
      for (const [date, into] of [
        [BUSY, afterChange.manyBusy],
        [QUIET, afterChange.manyQuiet],
      ] as const) {
        await many.db
          .updateTable('booking')
          .set({ age: 30 + (run % 2) })
          .where('id', '=', touched.id)
          .execute();
        into.push((await time(many, manyAdmin, date)).ms);
      }
    }
    const p50 = Object.fromEntries(
      Object.entries(runs).map(([key, values]) => [key, median(values)]),
    ) as Record<keyof typeof runs, number>;
    const changed = {
      manyBusy: median(afterChange.manyBusy),
      manyQuiet: median(afterChange.manyQuiet),
    };
    const stored = BOOKINGS.toLocaleString('en-US');
    // biome-ignore lint/suspicious/noConsole: the figures are the point of this test.
    console.log(
      `schedule (${engine}; ${stored} bookings seeded in ${seconds.toFixed(0)} s; p50 of ${RUNS}): ` +
        `day of ${PER_DAY}: ${p50.manyBusy.toFixed(2)} ms among ${stored} vs ${p50.fewBusy.toFixed(2)} ms alone ` +
        `(×${(p50.manyBusy / p50.fewBusy).toFixed(2)}); day of 5: ${p50.manyQuiet.toFixed(2)} ms vs ` +
        `${p50.fewQuiet.toFixed(2)} ms (×${(p50.manyQuiet / p50.fewQuiet).toFixed(2)}); ` +
        `day of ${PER_DAY} against day of 5 among ${stored}: ×${(p50.manyBusy / p50.manyQuiet).toFixed(2)}; ` +
        `first request after a change: day of ${PER_DAY} ${changed.manyBusy.toFixed(2)} ms, ` +
        `day of 5 ${changed.manyQuiet.toFixed(2)} ms (×${(changed.manyBusy / changed.manyQuiet).toFixed(2)})`,
    );
    // Generous, for a shared machine: a cost that grew with the bookings stored would be ~200x.
    expect(p50.manyBusy).toBeLessThan(Math.max(p50.fewBusy * 2, 1));
    expect(p50.manyQuiet).toBeLessThan(Math.max(p50.fewQuiet * 2, 1));
    if (BOOKINGS >= ACCEPTANCE_BOOKINGS) {
      // Issue 14's acceptance: the busy day within twice the quiet day, with
      // TOLERANCE_MS for the timer and the collector on a shared machine.
      expect(p50.manyBusy).toBeLessThan(p50.manyQuiet * 2 + TOLERANCE_MS);
    }
  }, 300_000);
});

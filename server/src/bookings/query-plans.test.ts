import { randomUUID } from 'node:crypto';
import { type IsoDate, slotUnits } from '@doctors-portal/contract';
import { type CompiledQuery, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { insertRows, queryPlan } from '../../test/query-plans.js';
import { demoTreatments } from '../db/demo-data.js';
import {
  bookedSlotsOn,
  countUnpaidUpcoming,
  findOverlappingBooking,
  findPatientBooking,
  heldTimeBetween,
  listPatientBookings,
  newBookingRow,
  slotHeld,
} from './repository.js';

/** A booking status compared with a bound value (`?` on SQLite, `$1` on PostgreSQL). */
const BOUND_STATUS = /"status"\s*(?:<>|!=|=|in|not in)\s*\(?\s*(?:\?|\$\d)/;

/**
 * The plans of the queries behind `GET /api/available`, `GET /api/booking?patientMail=` and
 * `POST /api/booking` (the schedule's is read in schedule.test.ts): each reads the booking
 * tables through an index, never whole, so that its cost stays that of the rows it wants at a
 * million bookings (bench/results.md). The queries are recorded as the repository sends them
 * and explained by the engine itself, over enough rows for PostgreSQL's planner to weigh an
 * index against a sequential scan as it would on a clinic's database.
 */
describe(`the booking queries' plans (${engine})`, () => {
  let t: TestApp;
  const patients = Array.from({ length: 300 }, (_, index) => ({
    id: randomUUID(),
    name: `Planned Patient ${index}`,
    email: `planned${index}@mail.com`,
  }));
  const treatments = demoTreatments.map((row) => ({
    ...row,
    slots: JSON.parse(row.slots) as string[],
  }));
  const [firstTreatment] = treatments;
  if (!firstTreatment) throw new Error('the demo catalogue is empty');
  const day = clinicDay(250);

  beforeAll(async () => {
    t = await buildTestApp();
    const stamp = engine === 'postgres' ? new Date() : new Date().toISOString();
    await t.db
      .insertInto('user')
      .values(
        patients.map((p) => ({
          ...p,
          emailVerified: engine === 'postgres' ? true : 1,
          image: null,
          createdAt: stamp,
          updatedAt: stamp,
          role: null,
        })) as never,
      )
      .execute();
    // 12,000 bookings, every other slot of each day from 50 days ahead on, each patient's spread
    // over the days, with the time units each holds, as the booking path stores them.
    const daySlots = treatments.flatMap((treatment) =>
      treatment.slots.map((slot) => ({ treatment, slot })),
    );
    const perDay = Math.floor(daySlots.length / 2);
    const bookings = [];
    const units = [];
    for (let index = 0; index < 12_000; index += 1) {
      const dayIndex = Math.floor(index / perDay);
      const { treatment, slot } = daySlots[
        (2 * (index % perDay) + (dayIndex % 2)) % daySlots.length
      ] as (typeof daySlots)[number];
      const patient = patients[index % patients.length] as (typeof patients)[number];
      const row = newBookingRow({
        treatment_id: treatment.id,
        treatment_name: treatment.name,
        price_cents: treatment.price_cents,
        date: clinicDay(50 + dayIndex),
        slot,
        patient_id: patient.id,
        patient_email: patient.email,
        patient_name: patient.name,
        phone: '+1 555 010 2030',
        age: 30,
      });
      if (index % 7 === 0) row.status = 'cancelled';
      bookings.push(row);
      if (row.status !== 'cancelled') {
        for (const unit of slotUnits(slot)) {
          units.push({ booking_id: row.id, patient_id: patient.id, date: row.date, unit });
        }
      }
    }
    await insertRows(t.db, 'booking', bookings);
    await insertRows(t.db, 'booking_unit', units);
    await sql`analyze`.execute(t.db);
  });
  afterAll(() => t.close());

  /** Runs `call` on a database that records every query it sends, and gives back those. */
  const recorded = async (call: (db: TestApp['db']) => Promise<unknown>) => {
    const queries: CompiledQuery[] = [];
    const executor = t.db.getExecutor();
    const recorder: KyselyPlugin = {
      transformQuery({ node, queryId }) {
        queries.push(executor.compileQuery(node, queryId));
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    await call(t.db.withPlugin(recorder));
    return queries;
  };

  /**
   * Every query reads the booking tables (`booking`, its time units) through an index, none whole,
   * and names the statuses it wants in its text: with a bound one, whether a partial index applies
   * is decided again at every call (SQLite prepares the statement afresh each time).
   */
  const expectIndexed = async (name: string, queries: CompiledQuery[]) => {
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      expect(query.sql).not.toMatch(BOUND_STATUS);
      const text = await queryPlan(t.db, query);
      // biome-ignore lint/suspicious/noConsole: the plan is what this test is about.
      console.log(`${name} (${engine}):\n  ${query.sql}\n${text}`);
      if (engine === 'sqlite') {
        expect(text).toMatch(/SEARCH (booking|booking_unit) USING (COVERING )?INDEX/);
        expect(text).not.toMatch(/SCAN (booking|booking_unit)\b/);
      } else {
        expect(text).toMatch(/Index/);
        expect(text).not.toMatch(/Seq Scan on (booking|booking_unit)\b/);
      }
    }
  };

  it("GET /api/available: the day's taken slots, and a month's", async () => {
    await expectIndexed('available', await recorded((db) => bookedSlotsOn(db, day)));
    // The month's read of the doctors' time units has its plan read in providers.test.ts,
    // where doctors hold some; here that table is empty.
    const month = await recorded((db) => heldTimeBetween(db, day, clinicDay(280) as IsoDate));
    await expectIndexed(
      'available month',
      month.filter((query) => query.sql.includes('from "booking"')),
    );
  });

  it("GET /api/booking?patientMail=: the patient's own bookings", async () => {
    const [patient] = patients;
    await expectIndexed(
      'my bookings',
      await recorded((db) => listPatientBookings(db, patient?.id ?? '')),
    );
  });

  it("POST /api/booking: the patient's unpaid count, the slot's chair, same-day booking and overlap", async () => {
    const [patient] = patients;
    const id = patient?.id ?? '';
    const slot = firstTreatment.slots[0] as string;
    const unpaid = await recorded((db) => countUnpaidUpcoming(db, id, day));
    await expectIndexed('unpaid upcoming', unpaid);
    if (engine === 'sqlite') {
      // From the index alone: its cost does not grow with the rows of the patient's history.
      for (const query of unpaid) {
        expect(await queryPlan(t.db, query)).toMatch(
          /USING COVERING INDEX booking_patient_date_idx/,
        );
      }
    }
    for (const by of ['with doctor', 'without doctor'] as const) {
      await expectIndexed(
        `the slot's chair, ${by}`,
        await recorded((db) =>
          slotHeld(db, { date: day, treatmentId: firstTreatment.id, slot }, by),
        ),
      );
    }
    await expectIndexed(
      'same treatment that day',
      await recorded((db) => findPatientBooking(db, id, firstTreatment.id, day)),
    );
    await expectIndexed(
      'overlap',
      await recorded((db) => findOverlappingBooking(db, id, day, slot)),
    );
  });
});

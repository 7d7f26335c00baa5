import {
  type AvailableMonth,
  type AvailableTreatment,
  formatMediumDate,
  type IsoDate,
} from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, seedPatients } from '../../test/accounts.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';

const TREATMENT = 'teeth-cleaning';
/** Bookings raced against readings of their day, each round's readings started later. */
const ROUNDS = 24;
const READINGS = 8;

async function freeSlots(app: FastifyInstance, date: string): Promise<string[]> {
  const response = await app.inject(`/api/available?date=${encodeURIComponent(date)}`);
  expect(response.statusCode).toBe(200);
  const treatments = response.json() as AvailableTreatment[];
  return treatments.find((treatment) => treatment._id === TREATMENT)?.slots ?? [];
}

/** The days the clinic opens in the months of these days, as the API writes them. */
async function openDays(app: FastifyInstance, offsets: number[]): Promise<string[]> {
  const months = await Promise.all(
    offsets.map(async (offset) => {
      const response = await app.inject(
        `/api/available/month?month=${clinicDay(offset).slice(0, 7)}`,
      );
      return (response.json() as AvailableMonth).days;
    }),
  );
  return months
    .flat()
    .filter((day) => day.status === 'open')
    .map((day) => formatMediumDate(day.date as IsoDate));
}

describe(`availability answers stay true to this instance's bookings (${engine})`, () => {
  let t: TestApp;
  let tokens: string[];

  beforeAll(async () => {
    t = await buildTestApp();
    const people = await seedPatients(t.db, engine, ROUNDS);
    tokens = await Promise.all(
      people.map(async (person) => (await t.app.accessTokens.issue(person)).token),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  const book = (token: string, date: string, slot: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(token),
      payload: { treatmentId: TREATMENT, date, slot, phone: '+1 555 010 2030', age: 40 },
    });

  it('a booking made while the day’s answer was being worked out is in the next answer', async () => {
    // Days no one has asked about yet: each answer below is worked out, not reused.
    const days = await openDays(t.app, [91, 122]);
    expect(days.length).toBeGreaterThanOrEqual(ROUNDS);
    for (const [index, token] of tokens.entries()) {
      const date = days[index] as string;
      const slot = '10:00 AM - 10:30 AM';
      // Readings start while the booking is under way, and their reads may end after the
      // booking's commit: an answer worked out from the bookings as they were must not outlive
      // the booking it missed. Staggered starts cover where that window falls.
      const booking = book(token, date, slot);
      const readings = Array.from({ length: READINGS }, async (_, reading) => {
        await new Promise((resolve) => setTimeout(resolve, index + reading));
        return freeSlots(t.app, date);
      });
      expect((await booking).statusCode).toBe(201);
      await Promise.all(readings);
      expect(await freeSlots(t.app, date)).not.toContain(slot);
    }
  });

  it('a cancellation frees its slot in the next answer, and a booking shows on its own day', async () => {
    const [token] = tokens as [string];
    const date = mediumDay(62);
    const other = mediumDay(63);
    const [slot] = (await freeSlots(t.app, date)) as [string];
    const otherSlots = await freeSlots(t.app, other);
    const booked = await book(token, date, slot);
    expect(booked.statusCode).toBe(201);
    expect(await freeSlots(t.app, date)).not.toContain(slot);
    expect(await freeSlots(t.app, other)).toEqual(otherSlots);
    const id = (booked.json() as { booking: { _id: string } }).booking._id;
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `/api/booking/${id}`,
      headers: bearer(token),
    });
    expect(cancelled.statusCode).toBe(200);
    expect(await freeSlots(t.app, date)).toContain(slot);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  bookingRow,
  type Patient,
  signedUpAdmin,
  signedUpPatient,
  unpaidBooking,
} from '../../test/payment-fixtures.js';
import { forgetClinicCalendar } from '../clinic/calendar.js';
import type { BookingChange } from './events.js';

/**
 * Every change to a booking is told to the app's listeners in the transaction that made it:
 * what they write commits with the change, and a listener that fails undoes it.
 */

const TEN = '10:00 AM - 10:30 AM';
const ELEVEN = '11:00 AM - 11:30 AM';

describe(`booking events (${engine})`, () => {
  let t: TestApp;
  let jane: Patient;
  let admin: Patient;
  const heard: { kind: BookingChange['kind']; id: string; slot: string; before?: string }[] = [];
  let failNext = false;

  beforeAll(async () => {
    t = await buildTestApp();
    [jane, admin] = await Promise.all([signedUpPatient(t.app, 'Jane Doe'), signedUpAdmin(t)]);
    t.app.bookingEvents.on(async (tx, change) => {
      // Written through the change's own transaction: it sees the change.
      const row = await tx
        .selectFrom('booking')
        .select('status')
        .where('id', '=', change.booking.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe(change.kind === 'cancelled' ? 'cancelled' : 'booked');
      if (failNext) {
        failNext = false;
        throw new Error('the listener failed');
      }
      heard.push({
        kind: change.kind,
        id: change.booking.id,
        slot: change.booking.slot,
        ...(change.kind === 'moved' ? { before: change.before.slot } : {}),
      });
    });
  });
  afterAll(() => t?.close());

  const book = (day: number, slot: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(jane.token),
      payload: {
        treatmentId: 'teeth-cleaning',
        treatment: 'Teeth Cleaning',
        date: mediumDay(day),
        slot,
        price: 80,
        patientMail: jane.email,
        patientName: jane.name,
        phone: '+1 555 010 2030',
        age: 34,
      },
    });

  it('tells of a booking, its move and its cancellation, each with the row it concerns', async () => {
    const booked = await book(40, TEN);
    expect(booked.statusCode, booked.body).toBe(201);
    const id = booked.json().booking._id as string;

    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/booking/${id}/reschedule`,
      headers: bearer(jane.token),
      payload: { date: mediumDay(40), slot: ELEVEN },
    });
    expect(moved.statusCode, moved.body).toBe(200);

    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `/api/booking/${id}`,
      headers: bearer(jane.token),
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);

    expect(heard.filter((change) => change.id === id)).toEqual([
      { kind: 'booked', id, slot: TEN },
      { kind: 'moved', id, slot: ELEVEN, before: TEN },
      { kind: 'cancelled', id, slot: ELEVEN },
    ]);
  });

  it("tells of the clinic's cancellation", async () => {
    const booking = await unpaidBooking(t, jane, { date: clinicDay(41) });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/booking/${booking.id}/cancel`,
      headers: bearer(admin.token),
      payload: { reason: 'The dentist is away' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(heard.at(-1)).toEqual({ kind: 'cancelled', id: booking.id, slot: booking.slot });
  });

  it('completes a change made while the cached clinic rules are stale', async () => {
    // The listeners (reminders, the waitlist) read the rules inside the change's transaction,
    // which on SQLite holds the one connection: a read through the app's database would hang.
    const booking = await unpaidBooking(t, jane, { date: clinicDay(43) });
    forgetClinicCalendar(t.db);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/booking/${booking.id}/cancel`,
      headers: bearer(admin.token),
      payload: { reason: 'The chair is broken' },
    });
    expect(response.statusCode, response.body).toBe(200);
  }, 10_000);

  it('undoes the change when a listener fails', async () => {
    const booking = await unpaidBooking(t, jane, { date: clinicDay(42) });
    failNext = true;
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/booking/${booking.id}`,
      headers: bearer(jane.token),
    });
    expect(response.statusCode).toBe(500);
    expect((await bookingRow(t, booking.id)).status).toBe('booked');
    expect(heard.some((change) => change.id === booking.id)).toBe(false);
  });
});

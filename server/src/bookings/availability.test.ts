import {
  type AvailableTreatment,
  addDays,
  formatMediumDate,
  weekdayOf,
} from '@doctors-portal/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accessToken, bearer, signUp } from '../../test/accounts.js';
import { clinicDay, clinicTime, mediumDay, nextClinicDate } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { forgetCachedTreatments } from '../treatments/repository.js';
import { clock } from './clock.js';
import { bookingErrors } from './errors.js';

const available = (t: TestApp, date: string) =>
  t.app.inject({ url: `/api/available?date=${encodeURIComponent(date)}` });

async function slotsOn(t: TestApp, date: string): Promise<Record<string, string[]>> {
  const response = await available(t, date);
  expect(response.statusCode).toBe(200);
  const treatments = response.json() as AvailableTreatment[];
  return Object.fromEntries(treatments.map((treatment) => [treatment._id, treatment.slots]));
}

describe(`GET /api/available (${engine})`, () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await buildTestApp();
    const account = await signUp(t.app, { name: 'Jane Doe' });
    token = await accessToken(t.app, account);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists every treatment in display order with all its slots and its price in dollars', async () => {
    const response = await available(t, mediumDay(4));
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const treatments = response.json() as AvailableTreatment[];
    expect(treatments.map(({ _id, name, price }) => ({ _id, name, price }))).toEqual([
      { _id: 'teeth-cleaning', name: 'Teeth Cleaning', price: 80 },
      { _id: 'fluoride-treatment', name: 'Fluoride Treatment', price: 45 },
      { _id: 'cavity-filling', name: 'Cavity Filling', price: 150 },
      { _id: 'teeth-whitening', name: 'Teeth Whitening', price: 250 },
      { _id: 'teeth-orthodontics', name: 'Teeth Orthodontics', price: 120 },
      { _id: 'oral-surgery', name: 'Oral Surgery', price: 400 },
      { _id: 'pediatric-dental', name: 'Pediatric Dental', price: 70 },
    ]);
    expect(treatments[0]?.slots).toEqual([
      '10:00 AM - 10:30 AM',
      '10:30 AM - 11:00 AM',
      '11:00 AM - 11:30 AM',
      '11:30 AM - 12:00 PM',
      '12:00 PM - 12:30 PM',
      '12:30 PM - 1:00 PM',
      '5:00 PM - 5:30 PM',
      '5:30 PM - 6:00 PM',
      '6:00 PM - 6:30 PM',
      '6:30 PM - 7:00 PM',
      '7:00 PM - 7:30 PM',
      '7:30 PM - 8:00 PM',
    ]);
  });

  it('takes a booked slot out of that treatment on that date only', async () => {
    const before = await slotsOn(t, mediumDay(5));
    const booking = await t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(token),
      payload: {
        treatmentId: 'cavity-filling',
        date: mediumDay(5),
        slot: '1:00 PM - 2:00 PM',
        phone: '+1 555 010 2030',
        age: 41,
      },
    });
    expect(booking.statusCode).toBe(201);

    const after = await slotsOn(t, mediumDay(5));
    expect(after['cavity-filling']).toEqual(
      before['cavity-filling']?.filter((slot) => slot !== '1:00 PM - 2:00 PM'),
    );
    expect(after['cavity-filling']).toHaveLength((before['cavity-filling']?.length ?? 0) - 1);
    expect({ ...after, 'cavity-filling': [] }).toEqual({ ...before, 'cavity-filling': [] });
    expect(await slotsOn(t, mediumDay(6))).toEqual(before);
  });

  it('offers no slot on a past date', async () => {
    const slots = await slotsOn(t, 'Jan 5, 2022');
    expect(Object.keys(slots)).toHaveLength(7);
    expect(Object.values(slots).flat()).toEqual([]);
  });

  it('offers the horizon’s last day and nothing after it (it could not be booked)', async () => {
    // The tests' horizon: 730 days (BOOKING_HORIZON_DAYS in test/helper.ts).
    expect(Object.values(await slotsOn(t, mediumDay(730))).flat()).not.toEqual([]);
    const beyond = await slotsOn(t, mediumDay(731));
    expect(Object.keys(beyond)).toHaveLength(7);
    expect(Object.values(beyond).flat()).toEqual([]);
  });

  describe("today, in the clinic's time zone (America/New_York)", () => {
    it('offers only the slots that start after the current time', async () => {
      // 6:30 PM in New York, 11:30 PM in UTC.
      vi.spyOn(clock, 'now').mockReturnValue(clinicTime(clinicDay(31), '18:30'));
      expect(await slotsOn(t, mediumDay(31))).toEqual({
        'teeth-cleaning': ['7:00 PM - 7:30 PM', '7:30 PM - 8:00 PM'],
        'fluoride-treatment': [],
        'cavity-filling': [],
        'teeth-whitening': ['7:00 PM - 8:00 PM', '8:00 PM - 9:00 PM'],
        'teeth-orthodontics': [],
        'oral-surgery': [],
        'pediatric-dental': [],
      });
      // Tomorrow is whole, though in UTC it is nearly today.
      expect((await slotsOn(t, mediumDay(32)))['teeth-cleaning']).toHaveLength(12);
      expect(Object.values(await slotsOn(t, mediumDay(30))).flat()).toEqual([]);
    });

    it('still offers a slot one minute before it starts', async () => {
      vi.spyOn(clock, 'now').mockReturnValue(clinicTime(clinicDay(31), '18:29'));
      expect((await slotsOn(t, mediumDay(31)))['teeth-cleaning']).toEqual([
        '6:30 PM - 7:00 PM',
        '7:00 PM - 7:30 PM',
        '7:30 PM - 8:00 PM',
      ]);
    });
  });

  it('neither offers nor books a slot in the hour the clocks skip on the night they go forward', async () => {
    // New York's clocks go from 2:00 to 3:00 AM on the second Sunday of March.
    const march = nextClinicDate('03-01');
    const sunday = addDays(march, ((7 - weekdayOf(march)) % 7) + 7);
    const night = [
      '1:30 AM - 2:00 AM',
      '2:00 AM - 2:30 AM',
      '2:30 AM - 3:00 AM',
      '3:00 AM - 3:30 AM',
    ];
    await t.db
      .insertInto('treatment')
      .values({
        id: 'night-care',
        name: 'Night Care',
        price_cents: 5000,
        slots: JSON.stringify(night),
        sort_order: 99,
      })
      .execute();
    forgetCachedTreatments(t.db);
    expect((await slotsOn(t, formatMediumDate(addDays(sunday, -1))))['night-care']).toEqual(night);
    expect((await slotsOn(t, formatMediumDate(sunday)))['night-care']).toEqual([
      '1:30 AM - 2:00 AM',
      '3:00 AM - 3:30 AM',
    ]);
    const booking = await t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(token),
      payload: {
        treatmentId: 'night-care',
        date: formatMediumDate(sunday),
        slot: '2:30 AM - 3:00 AM',
        phone: '+1 555 010 2030',
        age: 41,
      },
    });
    expect(booking.statusCode).toBe(400);
    expect(booking.json().message).toBe(bookingErrors.slotSkipped(formatMediumDate(sunday)));
  });

  describe('refuses a date that is not a real one in the spec’s format (400)', () => {
    // Impossible or malformed whatever the clock says: 2031 is no leap year.
    it.each([
      'Feb 30, 2031',
      'Feb 29, 2031',
      'Jan 32, 2031',
      'jan 5, 2031',
      'January 5, 2031',
      clinicDay(4),
      '5 Jan 2031',
      'tomorrow',
      '',
    ])('%j', async (date) => {
      const response = await available(t, date);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe("Provide a real date in the form 'Jan 5, 2022'");
    });

    it('and a missing one', async () => {
      const response = await t.app.inject('/api/available');
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Date is Required');
    });

    it('but takes a leap day', async () => {
      const leapDay = formatMediumDate(nextClinicDate('02-29'));
      expect((await available(t, leapDay)).statusCode).toBe(200);
    });
  });
});

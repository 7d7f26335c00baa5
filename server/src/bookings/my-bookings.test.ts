import { randomUUID } from 'node:crypto';
import { type AvailableTreatment, type Booking, formatMediumDate } from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accessToken, bearer, signUp } from '../../test/accounts.js';
import { clinicDay, clinicTime, mediumDay, nextClinicDate } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { KEPT_MS } from '../http/kept-between-writes.js';
import { clock } from './clock.js';

interface Patient {
  email: string;
  token: string;
}

async function patient(app: FastifyInstance, name: string): Promise<Patient> {
  const account = await signUp(app, { name });
  return { email: account.email, token: await accessToken(app, account) };
}

async function book(
  app: FastifyInstance,
  who: Patient,
  treatmentId: string,
  date: string,
  slot: string,
): Promise<Booking> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/booking',
    headers: bearer(who.token),
    payload: { treatmentId, date, slot, phone: '+1 555 010 2030', age: 29 },
  });
  expect(response.statusCode).toBe(201);
  return (response.json() as { booking: Booking }).booking;
}

const myBookings = (app: FastifyInstance, who: Patient, patientMail = who.email) =>
  app.inject({
    url: `/api/booking?patientMail=${encodeURIComponent(patientMail)}`,
    headers: bearer(who.token),
  });

const cancel = (app: FastifyInstance, who: Patient | null, id: string) =>
  app.inject({
    method: 'DELETE',
    url: `/api/booking/${id}`,
    headers: who ? bearer(who.token) : {},
  });

async function freeSlots(app: FastifyInstance, date: string, treatmentId: string) {
  const response = await app.inject(`/api/available?date=${encodeURIComponent(date)}`);
  const treatments = response.json() as AvailableTreatment[];
  return treatments.find((treatment) => treatment._id === treatmentId)?.slots ?? [];
}

describe(`a patient's own bookings (${engine})`, () => {
  let t: TestApp;
  let jane: Patient;
  let omar: Patient;

  beforeAll(async () => {
    // These cases are about whose booking and when it started: no cancellation notice.
    t = await buildTestApp({ env: { CANCELLATION_NOTICE_HOURS: '0' } });
    [jane, omar] = await Promise.all([patient(t.app, 'Jane Doe'), patient(t.app, 'Omar Haddad')]);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('GET /api/booking?patientMail=', () => {
    it('lists only the caller’s bookings, by date and then by start time', async () => {
      // Booked out of order; a date sorted as text would put the February after before the
      // March ('Feb 1, …' < 'Mar 1, …').
      const march = formatMediumDate(nextClinicDate('03-01'));
      const februaryAfter = formatMediumDate(nextClinicDate('02-01', nextClinicDate('03-01')));
      await book(t.app, jane, 'teeth-cleaning', februaryAfter, '10:00 AM - 10:30 AM');
      await book(t.app, jane, 'teeth-whitening', march, '7:00 PM - 8:00 PM');
      await book(t.app, jane, 'teeth-cleaning', march, '5:30 PM - 6:00 PM');
      await book(t.app, jane, 'cavity-filling', march, '11:00 AM - 12:00 PM');
      await book(t.app, omar, 'oral-surgery', march, '10:00 AM - 11:30 AM');

      const response = await myBookings(t.app, jane);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
      const bookings = response.json() as Booking[];
      expect(bookings.map(({ date, slot, treatment }) => [date, slot, treatment])).toEqual([
        [march, '11:00 AM - 12:00 PM', 'Cavity Filling'],
        [march, '5:30 PM - 6:00 PM', 'Teeth Cleaning'],
        [march, '7:00 PM - 8:00 PM', 'Teeth Whitening'],
        [februaryAfter, '10:00 AM - 10:30 AM', 'Teeth Cleaning'],
      ]);
      expect(bookings.every((booking) => booking.patientMail === jane.email)).toBe(true);
      expect(bookings[0]).toEqual({
        _id: expect.any(String),
        patientName: 'Jane Doe',
        patientMail: jane.email,
        date: march,
        slot: '11:00 AM - 12:00 PM',
        treatment: 'Cavity Filling',
        treatmentId: 'cavity-filling',
        price: 150,
        phone: '+1 555 010 2030',
        age: 29,
        paid: false,
        transactionId: null,
        status: 'booked',
        cancellable: true,
        cancelReason: null,
        refund: null,
        doctor: null,
      });
    });

    it('reads the email case-insensitively', async () => {
      const response = await myBookings(t.app, jane, jane.email.toUpperCase());
      expect(response.statusCode).toBe(200);
      expect((response.json() as Booking[]).length).toBeGreaterThan(0);
    });

    it('answers an empty list to a patient without bookings', async () => {
      const newcomer = await patient(t.app, 'Nia Newcomer');
      expect((await myBookings(t.app, newcomer)).json()).toEqual([]);
    });

    it('refuses another patient’s email (403), a caller without a token (401) and no email (400)', async () => {
      const other = await myBookings(t.app, omar, jane.email);
      expect(other.statusCode).toBe(403);
      expect(other.json().message).toBe('You can only see your own appointments.');
      const anonymous = await t.app.inject(`/api/booking?patientMail=${jane.email}`);
      expect(anonymous.statusCode).toBe(401);
      const unnamed = await t.app.inject({ url: '/api/booking', headers: bearer(jane.token) });
      expect(unnamed.statusCode).toBe(400);
      expect(unnamed.json().message).toBe('patientMail is Required');
    });

    it('shows a paid booking as paid with its transaction id', async () => {
      const booking = await book(
        t.app,
        omar,
        'teeth-cleaning',
        mediumDay(457),
        '11:00 AM - 11:30 AM',
      );
      await t.db
        .updateTable('booking')
        .set({ paid_at: new Date().toISOString(), transaction_id: 'pi_test_123' })
        .where('id', '=', booking._id)
        .execute();
      const listed = (await myBookings(t.app, omar)).json() as Booking[];
      expect(listed.find((row) => row._id === booking._id)).toMatchObject({
        paid: true,
        transactionId: 'pi_test_123',
      });
    });
  });

  describe('DELETE /api/booking/:id', () => {
    it('cancels the caller’s unpaid future booking and frees its slot', async () => {
      const slot = '2:00 PM - 3:00 PM';
      const booking = await book(t.app, jane, 'teeth-whitening', mediumDay(488), slot);
      expect(await freeSlots(t.app, mediumDay(488), 'teeth-whitening')).not.toContain(slot);

      const response = await cancel(t.app, jane, booking._id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ deletedCount: 1 });
      expect(await freeSlots(t.app, mediumDay(488), 'teeth-whitening')).toContain(slot);
      const listed = (await myBookings(t.app, jane)).json() as Booking[];
      expect(listed.map((row) => row._id)).not.toContain(booking._id);
      // Someone else can have it now, and so could Jane again.
      await book(t.app, omar, 'teeth-whitening', mediumDay(488), slot);
      // Cancelling it again says so.
      const again = await cancel(t.app, jane, booking._id);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('This visit has been cancelled.');
    });

    it('refuses someone else’s booking (403) and keeps it', async () => {
      const booking = await book(
        t.app,
        jane,
        'fluoride-treatment',
        mediumDay(489),
        '10:00 AM - 10:30 AM',
      );
      const response = await cancel(t.app, omar, booking._id);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('You can only cancel your own appointments.');
      expect(
        await t.db.selectFrom('booking').select('id').where('id', '=', booking._id).execute(),
      ).toHaveLength(1);
    });

    it('answers 404 for an unknown or malformed id, and 401 without a token', async () => {
      for (const id of [randomUUID(), 'not-a-booking-id', '1', `${randomUUID()}x`]) {
        const response = await cancel(t.app, jane, id);
        expect(response.statusCode, id).toBe(404);
        expect(response.json().message).toBe('There is no such booking.');
      }
      expect((await cancel(t.app, null, randomUUID())).statusCode).toBe(401);
    });

    it('keeps a paid booking whose payment the provider has no record of (409 with the phone)', async () => {
      const lena = await patient(t.app, 'Lena Paid');
      const booking = await book(
        t.app,
        lena,
        'teeth-cleaning',
        mediumDay(490),
        '10:00 AM - 10:30 AM',
      );
      await t.db
        .updateTable('booking')
        .set({ paid_at: new Date().toISOString(), transaction_id: 'pi_test_456' })
        .where('id', '=', booking._id)
        .execute();
      const response = await cancel(t.app, lena, booking._id);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(
        'Your payment for this appointment cannot be found with the payment provider, so it cannot be refunded online. The appointment stays booked and paid: please call the clinic on +1 (555) 010-2030.',
      );
      expect(
        (
          await t.db
            .selectFrom('booking')
            .select('status')
            .where('id', '=', booking._id)
            .executeTakeFirstOrThrow()
        ).status,
      ).toBe('booked');
    });

    it('refuses a booking whose day has passed or whose slot has started today (409)', async () => {
      const kai = await patient(t.app, 'Kai Late');
      const morning = await book(
        t.app,
        kai,
        'teeth-cleaning',
        mediumDay(491),
        '10:00 AM - 10:30 AM',
      );
      const evening = await book(
        t.app,
        kai,
        'teeth-whitening',
        mediumDay(491),
        '8:00 PM - 9:00 PM',
      );
      const message =
        'This appointment has already started or passed, so it can no longer be cancelled.';

      // 10:15 AM that day in New York.
      vi.spyOn(clock, 'now').mockReturnValue(clinicTime(clinicDay(491), '10:15'));
      const started = await cancel(t.app, kai, morning._id);
      expect(started.statusCode).toBe(409);
      expect(started.json().message).toBe(message);
      // The list says so, so that My Appointments offers only what the server allows.
      const listed = (await myBookings(t.app, kai)).json() as Booking[];
      expect(listed.map((booking) => [booking.slot, booking.cancellable])).toEqual([
        ['10:00 AM - 10:30 AM', false],
        ['8:00 PM - 9:00 PM', true],
      ]);

      // The next morning.
      vi.spyOn(clock, 'now').mockReturnValue(clinicTime(clinicDay(492), '09:00'));
      const past = await cancel(t.app, kai, evening._id);
      expect(past.statusCode).toBe(409);
      expect(past.json().message).toBe(message);

      // Earlier that day the evening slot could still be cancelled.
      vi.spyOn(clock, 'now').mockReturnValue(clinicTime(clinicDay(491), '10:15'));
      expect((await cancel(t.app, kai, evening._id)).statusCode).toBe(200);
    });
  });

  describe('kept in memory between writes (decision 039)', () => {
    const listed = async (who: Patient) =>
      ((await myBookings(t.app, who)).json() as Booking[]).map(({ _id, phone }) => [_id, phone]);

    it('shows a change made through this instance at once', async () => {
      const ana = await patient(t.app, 'Ana Lima');
      const date = mediumDay(495);
      expect(await listed(ana)).toEqual([]);
      const [slot] = await freeSlots(t.app, date, 'teeth-cleaning');
      const booking = await book(t.app, ana, 'teeth-cleaning', date, slot ?? '');
      expect(await listed(ana)).toEqual([[booking._id, booking.phone]]);
      expect((await cancel(t.app, ana, booking._id)).statusCode).toBe(200);
      expect(await listed(ana)).toEqual([]);
    });

    it('shows a change made by another instance within a second, from memory until then', async () => {
      const ben = await patient(t.app, 'Ben Okafor');
      const date = mediumDay(496);
      const [slot] = await freeSlots(t.app, date, 'teeth-cleaning');
      const booking = await book(t.app, ben, 'teeth-cleaning', date, slot ?? '');
      expect(await listed(ben)).toEqual([[booking._id, booking.phone]]);
      // Written to the database, not through this app.
      await t.db
        .updateTable('booking')
        .set({ phone: '+1 555 010 9999' })
        .where('id', '=', booking._id)
        .execute();
      expect(await listed(ben)).toEqual([[booking._id, booking.phone]]);
      await new Promise((resolve) => setTimeout(resolve, KEPT_MS));
      expect(await listed(ben)).toEqual([[booking._id, '+1 555 010 9999']]);
    });
  });
});

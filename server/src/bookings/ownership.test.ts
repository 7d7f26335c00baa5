import type { Booking } from '@doctors-portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, bearer, signUp } from '../../test/accounts.js';
import { type Person, signedUp, signedUpAdmin } from '../../test/admin-fixtures.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';

/**
 * A booking belongs to the account that made it, never to an email address: when an account is
 * removed, whoever signs up next with the same address (verified or not) sees nothing of its
 * bookings and can act on none of them, while the clinic keeps them.
 */
describe(`bookings belong to accounts (${engine})`, () => {
  let t: TestApp;
  let admin: Person;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedUpAdmin(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a removed account’s bookings are never shown to, read, paid or cancelled by the next owner of its address', async () => {
    const first = await signedUp(t.app, 'Rita Former');
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(first.token),
      payload: {
        treatmentId: 'teeth-cleaning',
        date: mediumDay(96),
        slot: '10:00 AM - 10:30 AM',
        phone: '+1 555 777 0101',
        age: 52,
      },
    });
    expect(booked.statusCode).toBe(201);
    const { _id: id } = (booked.json() as { booking: Booking }).booking;

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/${first.email}`,
      headers: bearer(admin.token),
    });
    expect(removed.statusCode).toBe(200);

    for (const verified of [false, true]) {
      const account = await signUp(t.app, { name: 'Mallory Next', email: first.email, verified });
      const token = await accessToken(t.app, account);
      const as = bearer(token);

      const list = await t.app.inject({
        url: `/api/booking?patientMail=${encodeURIComponent(first.email)}`,
        headers: as,
      });
      expect(list.statusCode).toBe(200);
      expect(list.json()).toEqual([]);
      expect(list.body).not.toContain('555 777 0101');

      const read = await t.app.inject({ url: `/api/booking/${id}`, headers: as });
      expect(read.statusCode).toBe(403);
      expect(read.body).not.toContain('Rita');

      const pay = await t.app.inject({
        method: 'POST',
        url: '/api/create-payment-intent',
        headers: as,
        payload: { bookingId: id },
      });
      expect(pay.statusCode).toBe(403);

      const cancel = await t.app.inject({
        method: 'DELETE',
        url: `/api/booking/${id}`,
        headers: as,
      });
      expect(cancel.statusCode).toBe(403);

      // Removed in turn, so that the address is free for the next round.
      await t.app.inject({
        method: 'DELETE',
        url: `/api/user/${first.email}`,
        headers: bearer(admin.token),
      });
    }

    // The clinic keeps the booking, untouched and no longer linked to any account.
    const row = await t.db
      .selectFrom('booking')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ patient_id: null, status: 'booked', patient_name: 'Rita Former' });
    // An admin still reads it.
    expect(
      (await t.app.inject({ url: `/api/booking/${id}`, headers: bearer(admin.token) })).statusCode,
    ).toBe(200);
  });

  it('lists the caller’s own bookings by account, whatever address a booking row carries', async () => {
    const owner = await signedUp(t.app, 'Noor Owner');
    const other = await signedUp(t.app, 'Omar Other');
    const { id: ownerId } = await t.db
      .selectFrom('user')
      .select('id')
      .where('email', '=', owner.email.toLowerCase())
      .executeTakeFirstOrThrow();
    const base = {
      treatment_id: 'teeth-cleaning',
      treatment_name: 'Teeth Cleaning',
      price_cents: 8000,
      slot: '10:00 AM - 10:30 AM',
      patient_name: 'Noor Owner',
      phone: '+1 555 010 2030',
      age: 30,
      created_at: new Date().toISOString(),
      paid_at: null,
      transaction_id: null,
    };
    // One of Noor's bookings under an old spelling of her address, and a stranger's booking
    // carrying Noor's address but no account.
    await t.db
      .insertInto('booking')
      .values([
        {
          ...base,
          id: crypto.randomUUID(),
          date: clinicDay(97),
          patient_id: ownerId,
          patient_email: 'Old.Spelling@Example.com',
        },
        {
          ...base,
          id: crypto.randomUUID(),
          date: clinicDay(98),
          patient_id: null,
          patient_email: owner.email,
        },
      ])
      .execute();

    const mine = await t.app.inject({
      url: `/api/booking?patientMail=${encodeURIComponent(owner.email)}`,
      headers: bearer(owner.token),
    });
    expect((mine.json() as Booking[]).map((booking) => booking.date)).toEqual([mediumDay(97)]);

    // The spec's parameter must still name the caller.
    const theirs = await t.app.inject({
      url: `/api/booking?patientMail=${encodeURIComponent(owner.email)}`,
      headers: bearer(other.token),
    });
    expect(theirs.statusCode).toBe(403);
  });
});

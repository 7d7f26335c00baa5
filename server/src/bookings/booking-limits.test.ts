import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, bearer, signUp } from '../../test/accounts.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { unpaidBooking } from '../../test/payment-fixtures.js';

const book = (app: FastifyInstance, token: string, fields: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url: '/api/booking',
    headers: bearer(token),
    payload: {
      treatmentId: 'teeth-cleaning',
      slot: '10:00 AM - 10:30 AM',
      phone: '+1 555 010 2030',
      age: 40,
      ...fields,
    },
  });

/** Today's visits, over for the clinic: one of each kind. */
const OVER = {
  completed: { treatment_id: 'teeth-cleaning', slot: '8:00 AM - 8:30 AM' },
  no_show: { treatment_id: 'cavity-filling', slot: '9:00 AM - 10:00 AM' },
} as const;

async function patient(app: FastifyInstance, verified = true) {
  const account = await signUp(app, { name: 'Limit Tester', verified });
  return { ...account, token: await accessToken(app, account) };
}

/**
 * What one patient may book, with the embedded defaults: dates up to 180 days ahead, at most 5
 * upcoming unpaid bookings, and only once their address is verified. The tests' clinic clock
 * stands at noon on Jan 1, 2031 (server/test/dates.ts); dates are named relative to it.
 */
describe(`booking limits (${engine})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    // An empty variable is an unset one: the embedded defaults apply.
    t = await buildTestApp({ env: { BOOKING_HORIZON_DAYS: '', MAX_UNPAID_BOOKINGS: '' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a date beyond the booking horizon with a 400 naming the last date', async () => {
    const { token } = await patient(t.app);
    // The clock's today + 180 days is the last bookable date.
    expect((await book(t.app, token, { date: mediumDay(180) })).statusCode).toBe(201);
    for (const date of [mediumDay(181), 'Dec 31, 9999']) {
      const response = await book(t.app, token, { date });
      expect(response.statusCode, date).toBe(400);
      expect(response.json().message).toBe(
        `Appointments can be booked up to 180 days ahead: please pick a date on or before ${mediumDay(180)}.`,
      );
    }
  });

  it('caps a patient’s upcoming unpaid bookings at 5 with a 409, and lets paying free a place', async () => {
    const { token } = await patient(t.app);
    const treatments = [
      ['teeth-cleaning', '10:00 AM - 10:30 AM'],
      ['cavity-filling', '11:00 AM - 12:00 PM'],
      ['teeth-whitening', '7:00 PM - 8:00 PM'],
    ] as const;
    const ids: string[] = [];
    for (let day = 1; day <= 5; day += 1) {
      const [treatmentId, slot] = treatments[day % treatments.length] ?? treatments[0];
      const response = await book(t.app, token, { date: mediumDay(30 + day), treatmentId, slot });
      expect(response.statusCode).toBe(201);
      ids.push(response.json().booking._id);
    }
    const sixth = await book(t.app, token, { date: mediumDay(36) });
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json().message).toBe(
      'You already have 5 upcoming appointments that are not paid yet. Please pay for or cancel one of them before booking another.',
    );

    await t.db
      .updateTable('booking')
      .set({ paid_at: new Date().toISOString(), transaction_id: 'pi_demo_paid' })
      .where('id', '=', ids[0] ?? '')
      .execute();
    expect((await book(t.app, token, { date: mediumDay(36) })).statusCode).toBe(201);
  });

  it("counts only visits still to come: not one of today's the clinic marked completed or a no-show", async () => {
    const account = await patient(t.app);
    const holder = { ...account, name: 'Limit Tester' };
    // Today's two visits, over for the clinic, and three still to come.
    for (const status of ['completed', 'no_show'] as const) {
      await unpaidBooking(t, holder, { date: clinicDay(0), status, ...OVER[status] });
    }
    for (let day = 1; day <= 3; day += 1) {
      expect((await book(t.app, account.token, { date: mediumDay(120 + day) })).statusCode).toBe(
        201,
      );
    }
    // Two more places under the cap of 5.
    expect((await book(t.app, account.token, { date: mediumDay(124) })).statusCode).toBe(201);
    expect((await book(t.app, account.token, { date: mediumDay(125) })).statusCode).toBe(201);
    expect((await book(t.app, account.token, { date: mediumDay(126) })).statusCode).toBe(409);
  });

  it('holds the cap when a patient books many dates at once', async () => {
    const { token, id } = await patient(t.app);
    const dates = Array.from({ length: 30 }, (_, day) => mediumDay(59 + day));
    const responses = await Promise.all(dates.map((date) => book(t.app, token, { date })));
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(5);
    expect(responses.filter((response) => response.statusCode === 409)).toHaveLength(25);
    const rows = await t.db
      .selectFrom('booking')
      .select('id')
      .where('patient_id', '=', id)
      .execute();
    expect(rows).toHaveLength(5);
  });

  it('requires a verified address to book or to pay, and says why', async () => {
    const unverified = await patient(t.app, false);
    const message =
      'Please verify your email address first: follow the link we sent you, or ask for a new one.';
    const response = await book(t.app, unverified.token, { date: mediumDay(90) });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(message);

    const booking = await unpaidBooking(t, {
      id: unverified.id,
      email: unverified.email,
      name: 'Limit Tester',
      token: unverified.token,
    });
    const pay = await t.app.inject({
      method: 'POST',
      url: '/api/create-payment-intent',
      headers: bearer(unverified.token),
      payload: { bookingId: booking.id },
    });
    expect(pay.statusCode).toBe(403);
    expect(pay.json().message).toBe(message);
  });
});

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, bearer, signUp } from '../../test/accounts.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';

const book = (app: FastifyInstance, token: string, fields: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url: '/api/booking',
    headers: bearer(token),
    payload: { phone: '+1 555 010 2030', age: 40, ...fields },
  });

async function patient(app: FastifyInstance, name: string) {
  const account = await signUp(app, { name });
  return { ...account, token: await accessToken(app, account) };
}

/**
 * A patient is in one chair at a time: bookings of one patient never overlap in time, whatever
 * the treatments and their lengths, and the database holds the rule (each booking holds the time
 * units it covers under a unique index), so that concurrent requests cannot get around it.
 */
describe(`a patient cannot be in two chairs at once (${engine})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a second treatment at the same time with a 409 naming the clashing appointment', async () => {
    const { token } = await patient(t.app, 'Ada Overlap');
    const cleaning = { treatmentId: 'teeth-cleaning', date: mediumDay(152) };
    expect(
      (await book(t.app, token, { ...cleaning, slot: '10:00 AM - 10:30 AM' })).statusCode,
    ).toBe(201);
    const fluoride = await book(t.app, token, {
      treatmentId: 'fluoride-treatment',
      date: mediumDay(152),
      slot: '10:00 AM - 10:30 AM',
    });
    expect(fluoride.statusCode).toBe(409);
    expect(fluoride.json()).toEqual({
      success: false,
      reason: 'overlap',
      message: `That time overlaps your Teeth Cleaning appointment On: ${mediumDay(152)} At 10:00 AM - 10:30 AM. Please pick another time.`,
      booking: { date: mediumDay(152), slot: '10:00 AM - 10:30 AM', treatment: 'Teeth Cleaning' },
    });
    // Right after it, and at the same time on another day, are fine.
    const next = { treatmentId: 'fluoride-treatment', slot: '10:30 AM - 11:00 AM' };
    expect((await book(t.app, token, { ...next, date: mediumDay(152) })).statusCode).toBe(201);
    expect(
      (
        await book(t.app, token, {
          treatmentId: 'fluoride-treatment',
          date: mediumDay(153),
          slot: '10:00 AM - 10:30 AM',
        })
      ).statusCode,
    ).toBe(201);
  });

  it('a one-hour visit blocks the half hours inside it, for its patient only', async () => {
    const ben = await patient(t.app, 'Ben Hour');
    const cleo = await patient(t.app, 'Cleo Other');
    const filling = {
      treatmentId: 'cavity-filling',
      date: mediumDay(154),
      slot: '11:00 AM - 12:00 PM',
    };
    expect((await book(t.app, ben.token, filling)).statusCode).toBe(201);
    const inside = {
      treatmentId: 'teeth-cleaning',
      date: mediumDay(154),
      slot: '11:30 AM - 12:00 PM',
    };
    const refused = await book(t.app, ben.token, inside);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      reason: 'overlap',
      booking: { slot: '11:00 AM - 12:00 PM', treatment: 'Cavity Filling' },
    });
    expect((await book(t.app, cleo.token, inside)).statusCode).toBe(201);
  });

  it('a cancelled booking gives its time back', async () => {
    const { token } = await patient(t.app, 'Dia Cancel');
    const first = await book(t.app, token, {
      treatmentId: 'teeth-cleaning',
      date: mediumDay(155),
      slot: '10:00 AM - 10:30 AM',
    });
    const clash = {
      treatmentId: 'fluoride-treatment',
      date: mediumDay(155),
      slot: '10:00 AM - 10:30 AM',
    };
    expect((await book(t.app, token, clash)).statusCode).toBe(409);
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `/api/booking/${first.json().booking._id}`,
      headers: bearer(token),
    });
    expect(cancelled.statusCode).toBe(200);
    expect((await book(t.app, token, clash)).statusCode).toBe(201);
  });

  it('one patient sending 40 overlapping bookings of four treatments at once: exactly one holds', async () => {
    const { token, id } = await patient(t.app, 'Eve Racer');
    const overlapping = [
      ['teeth-cleaning', '10:00 AM - 10:30 AM'],
      ['fluoride-treatment', '10:00 AM - 10:30 AM'],
      ['teeth-orthodontics', '10:00 AM - 11:00 AM'],
      ['oral-surgery', '10:00 AM - 11:30 AM'],
    ] as const;
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, index) => {
        const [treatmentId, slot] = overlapping[index % overlapping.length] ?? overlapping[0];
        return book(t.app, token, { treatmentId, slot, date: mediumDay(156) });
      }),
    );
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(1);
    expect(responses.filter((response) => response.statusCode === 409)).toHaveLength(39);
    const rows = await t.db
      .selectFrom('booking')
      .select('id')
      .where('patient_id', '=', id)
      .where('date', '=', clinicDay(156))
      .execute();
    expect(rows).toHaveLength(1);
  }, 60_000);
});

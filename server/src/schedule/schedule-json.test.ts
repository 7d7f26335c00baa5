import { scheduleSchema } from '@doctors-portal/contract';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { clinicDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  ODD_TEXT,
  type Patient,
  signedUpAdmin,
  signedUpPatient,
  unpaidBooking,
} from '../../test/payment-fixtures.js';
import { clinicMoment, clock } from '../bookings/clock.js';
import { inAppointmentOrder, toScheduleEntry } from '../bookings/presenters.js';
import { listSchedule, scheduleQuery } from '../bookings/repository.js';

/**
 * `GET /api/schedule` writes its answer itself (`scheduleJson`) rather than through the response
 * schema's encoder, and on SQLite reads its rows as JSON the database writes (`listSchedule`).
 * Both must change nothing: the rows are the rows the plain query reads, and the answer is, byte
 * for byte, what `scheduleSchema` encoded by fastify-type-provider-zod writes, for every kind of
 * booking and every character a name may hold.
 */
describe(`the schedule's answer as written (${engine})`, () => {
  let t: TestApp;
  let admin: Patient;
  let jane: Patient;
  let omar: Patient;
  const first = clinicDay(40);
  const second = clinicDay(41);

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedUpAdmin(t);
    jane = await signedUpPatient(t.app, 'Jane Doe');
    omar = await signedUpPatient(t.app, 'Omar Haddad');
    const now = new Date().toISOString();
    const paid = await unpaidBooking(t, jane, {
      date: first,
      slot: '2:00 PM - 2:30 PM',
      patient_name: ODD_TEXT,
      phone: '+1 (555) 010-2030',
      price_cents: 1999,
      paid_at: now,
      transaction_id: 'pi_demo_refund_1',
      status: 'cancelled',
      cancelled_at: now,
      cancelled_by: admin.id,
      cancel_reason: `Closed: ${ODD_TEXT}`,
    });
    // Two refunds: its payment's is shown, not a second charge's.
    await t.db
      .insertInto('refund')
      .values(
        ['2030-01-01T00:00:00.000Z', '2030-01-02T00:00:00.000Z'].map((at, index) => ({
          id: `re_demo_${index}`,
          booking_id: paid.id,
          provider: 'demo' as const,
          intent_id: `pi_demo_refund_${index}`,
          amount_cents: 1999,
          currency: 'usd',
          reason: 'Refunded',
          created_at: at,
        })),
      )
      .execute();
    await unpaidBooking(t, jane, {
      date: first,
      treatment_id: 'teeth-whitening',
      treatment_name: 'Teeth Whitening',
      slot: '10:00 AM - 11:00 AM',
      price_cents: 5,
      doctor_id: 'doctor-x',
      doctor_name: 'Dr. "X" \u00e9',
      status: 'arrived',
    });
    await unpaidBooking(t, omar, {
      date: first,
      treatment_id: 'cavity-filling',
      treatment_name: 'Cavity Filling',
      slot: '9:00 AM - 9:30 AM',
      price_cents: 0,
      status: 'cancelled',
      cancelled_at: now,
      cancelled_by: omar.id,
      cancel_reason: null,
    });
    await unpaidBooking(t, omar, {
      date: first,
      treatment_id: 'fluoride-treatment',
      treatment_name: 'Fluoride Treatment',
      slot: 'not a slot label',
      age: 0,
      status: 'cancelled',
      cancelled_at: now,
      cancelled_by: null,
      cancel_reason: 'By the system',
    });
    await unpaidBooking(t, omar, { date: clinicDay(3), status: 'no_show' });
    await unpaidBooking(t, omar, { date: clinicDay(4), status: 'no_show' });
    await unpaidBooking(t, omar, { date: second, status: 'confirmed', doctor_id: 'doctor-y' });
    await unpaidBooking(t, jane, { date: second, patient_id: null, patient_name: 'Guest' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reads the same rows as the plain query', async () => {
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    const plain = (await scheduleQuery(t.db, { from: first, to: second }).execute()).map((row) => ({
      ...row,
      refund_id: row.refund_id ?? null,
      no_shows: Number(row.no_shows),
    }));
    const read = await listSchedule(t.db, { from: first, to: second });
    expect(read).toHaveLength(6);
    expect(read.toSorted(byId)).toEqual(plain.toSorted(byId));
    expect(read.find((row) => row.refund_id)?.refund_id).toBe('re_demo_1');
    expect(Math.max(...read.map((row) => row.no_shows))).toBe(2);
  });

  it("answers, byte for byte, what the response schema's encoder writes", async () => {
    for (const [from, to] of [
      [first, second],
      [first, first],
      [clinicDay(60), clinicDay(60)],
    ] as const) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/schedule?from=${from}&to=${to}`,
        headers: bearer(admin.token),
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const rows = inAppointmentOrder(await listSchedule(t.db, { from, to }));
      const serialize = serializerCompiler({ schema: scheduleSchema, method: 'GET', url: '' });
      const expected = serialize({
        from,
        to,
        today: clinicMoment(t.config.clinic.timeZone, clock.now()).today,
        bookings: rows.map(toScheduleEntry),
      });
      expect(response.body).toBe(expected);
    }
  });
});

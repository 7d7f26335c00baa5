import { bookingSchema } from '@doctors-portal/contract';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
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
import { refundsOf } from '../payments/repository.js';
import { clinicMoment, clock } from './clock.js';
import { inAppointmentOrder, toApiBooking } from './presenters.js';
import { listPatientBookings } from './repository.js';

/**
 * `GET /api/booking` writes its answer itself (`patientBookingsJson`) rather than through the
 * response schema's encoder. That must change nothing: the answer is, byte for byte, what an
 * array of `bookingSchema` encoded by fastify-type-provider-zod writes, for every kind of booking
 * the list holds and every character a name may hold.
 */
describe(`the patient's bookings as written (${engine})`, () => {
  let t: TestApp;
  let jane: Patient;

  beforeAll(async () => {
    // A day's notice: some bookings are past it and may no longer be cancelled.
    t = await buildTestApp({ env: { CANCELLATION_NOTICE_HOURS: '24' } });
    const admin = await signedUpAdmin(t);
    jane = await signedUpPatient(t.app, 'Jane Doe');
    const now = new Date().toISOString();
    const refunded = await unpaidBooking(t, jane, {
      date: clinicDay(5),
      slot: '2:00 PM - 2:30 PM',
      patient_name: ODD_TEXT,
      price_cents: 1999,
      paid_at: now,
      transaction_id: 'pi_demo_refund_1',
      status: 'cancelled',
      cancelled_at: now,
      cancelled_by: admin.id,
      cancel_reason: `Closed: ${ODD_TEXT}`,
    });
    await t.db
      .insertInto('refund')
      .values({
        id: 're_demo_1',
        booking_id: refunded.id,
        provider: 'demo',
        intent_id: 'pi_demo_refund_1',
        amount_cents: 1999,
        currency: 'usd',
        reason: 'Refunded',
        created_at: now,
      })
      .execute();
    await unpaidBooking(t, jane, {
      date: clinicDay(0),
      slot: '9:00 PM - 9:30 PM',
      doctor_id: 'doctor-x',
      doctor_name: 'Dr. "X" \u00e9',
    });
    await unpaidBooking(t, jane, { date: clinicDay(9), status: 'confirmed', age: 0 });
    await unpaidBooking(t, jane, { date: clinicDay(-3), status: 'completed', price_cents: 0 });
    await unpaidBooking(t, jane, {
      date: clinicDay(12),
      status: 'cancelled',
      cancelled_at: now,
      cancelled_by: null,
      cancel_reason: 'By the system',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers, byte for byte, what the response schema's encoder writes", async () => {
    const response = await t.app.inject({
      url: `/api/booking?patientMail=${encodeURIComponent(jane.email)}`,
      headers: bearer(jane.token),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');

    const rows = inAppointmentOrder(await listPatientBookings(t.db, jane.id));
    const refunds = await refundsOf(
      t.db,
      rows.map((row) => row.id),
    );
    const moment = clinicMoment(t.config.clinic.timeZone, clock.now());
    const serialize = serializerCompiler({
      schema: z.array(bookingSchema),
      method: 'GET',
      url: '',
    });
    const expected = serialize(
      rows.map((row) => toApiBooking(row, moment, 24, refunds.get(row.id) ?? null)),
    );
    expect(response.body).toBe(expected);
    const listed = response.json() as { cancellable: boolean; refund: unknown }[];
    // The unpaid booking the system cancelled is not the patient's to hear of: not listed.
    expect(listed).toHaveLength(4);
    expect(listed.filter((booking) => booking.cancellable)).toHaveLength(1);
    expect(listed.filter((booking) => booking.refund)).toHaveLength(1);
  });
});

import { type Booking as ApiBooking, addDays, type IsoDate } from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { clinicDay, clinicTime, mediumDay, nextClinicDate } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  bookingRow,
  type Patient,
  paidThroughStripe,
  signedUpPatient,
  stripeStandInEnv,
  unpaidBooking,
} from '../../test/payment-fixtures.js';
import { payThroughDemo } from '../../test/security-fixtures.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { type StripeStandIn, startStripeStandIn } from '../../test/stripe-stand-in.js';
import { clinicCalendarMessages } from '../clinic/calendar.js';
import { clock } from './clock.js';
import { patientCancelRefusals } from './errors.js';

/**
 * The cancellation policy: a patient cancels a booked or confirmed booking, paid or not, until
 * the clinic's cancellation notice (24 hours by default) before its start; a paid one is refunded
 * through the payment provider by the clinic's own refund path. Later, 409 with the clinic's phone.
 */

const PHONE = '+1 (555) 010-2030';

const cancel = (app: FastifyInstance, patient: Patient, id: string) =>
  app.inject({ method: 'DELETE', url: `/api/booking/${id}`, headers: bearer(patient.token) });

/** Books `treatmentId` at `slot` on the clinic's day `offset` days from today, through the API. */
const book = (
  app: FastifyInstance,
  patient: Patient,
  treatmentId: string,
  offset: number,
  slot: string,
) =>
  app.inject({
    method: 'POST',
    url: '/api/booking',
    headers: bearer(patient.token),
    payload: { treatmentId, date: mediumDay(offset), slot, phone: '+1 555 010 4444', age: 40 },
  });

/** Moves the booking to 10:00 AM on the clinic's day `offset` days from today. */
const moveTo = (app: FastifyInstance, patient: Patient, id: string, offset: number) =>
  app.inject({
    method: 'POST',
    url: `/api/booking/${id}/reschedule`,
    headers: bearer(patient.token),
    payload: { date: mediumDay(offset), slot: '10:00 AM - 10:30 AM' },
  });

async function listed(app: FastifyInstance, patient: Patient, id: string) {
  const response = await app.inject({
    method: 'GET',
    url: `/api/booking?patientMail=${encodeURIComponent(patient.email)}`,
    headers: bearer(patient.token),
  });
  return (response.json() as ApiBooking[]).find((booking) => booking._id === id);
}

const refundsOf = (t: TestApp, bookingId: string) =>
  t.db.selectFrom('refund').selectAll().where('booking_id', '=', bookingId).execute();

const patientAudit = async (t: TestApp, bookingId: string, patient: Patient) =>
  (
    await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('subject_id', '=', bookingId)
      .where('actor_id', '=', patient.id)
      .execute()
  )
    .map((entry) => entry.action)
    .sort();

/** The clinic's first date on or after `from` whose day is `hours` long (23: spring, 25: autumn). */
function dayOfLength(hours: number, from: IsoDate): IsoDate {
  for (let day = from, left = 400; left > 0; day = addDays(day, 1), left -= 1) {
    const length =
      clinicTime(addDays(day, 1), '00:00').getTime() - clinicTime(day, '00:00').getTime();
    if (length === hours * 3_600_000) return day;
  }
  throw new Error(`no ${hours}-hour day`);
}

describe(`the cancellation policy (${engine})`, () => {
  describe('with the demo gateway', () => {
    let smtp: TestSmtpServer;
    let t: TestApp;
    let jane: Patient;

    beforeAll(async () => {
      smtp = await startTestSmtpServer();
      // The default notice: 24 hours.
      t = await buildTestApp({ env: { SMTP_URL: smtp.url, MAIL_RATE: '1000' } });
      jane = await signedUpPatient(t.app, 'Jane Doe');
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    it("the clinic's calendar tells the pages the notice the policy states (24 hours by default)", async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/clinic/calendar?from=${clinicDay(0)}&to=${clinicDay(0)}`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().cancellationNoticeHours).toBe(24);
    });

    it('an unpaid booking cancelled in time: cancelled, its slot free for someone else', async () => {
      const eleven = (patient: Patient) =>
        book(t.app, patient, 'teeth-cleaning', 40, '11:00 AM - 11:30 AM');
      const booked = await eleven(jane);
      expect(booked.statusCode, booked.body).toBe(201);
      const id = booked.json().booking._id as string;
      expect((await listed(t.app, jane, id))?.cancellable).toBe(true);

      expect((await cancel(t.app, jane, id)).statusCode).toBe(200);
      expect(await bookingRow(t, id)).toMatchObject({ status: 'cancelled', cancelled_by: jane.id });
      expect(await refundsOf(t, id)).toEqual([]);
      const omar = await signedUpPatient(t.app, 'Omar Next');
      expect((await eleven(omar)).statusCode).toBe(201);
      const mail = await smtp.waitForMail(
        (received) =>
          received.envelope.to.includes(jane.email) &&
          (received.text ?? '').includes('As you asked'),
      );
      expect(mail.text).not.toContain('Refunded');
    });

    it('answers a booking made inside the notice as not cancellable, as every later read does', async () => {
      // Tomorrow at 10:00 AM: 22 hours away.
      const made = await book(t.app, jane, 'fluoride-treatment', 1, '10:00 AM - 10:30 AM');
      expect(made.statusCode, made.body).toBe(201);
      const { booking } = made.json() as { booking: { _id: string; cancellable: boolean } };
      expect(booking.cancellable).toBe(false);
      expect((await listed(t.app, jane, booking._id))?.cancellable).toBe(false);
      expect((await cancel(t.app, jane, booking._id)).statusCode).toBe(409);
    });

    it('a paid booking cancelled in time: cancelled, refunded through the gateway, recorded and mailed', async () => {
      const booking = await unpaidBooking(t, jane, { date: clinicDay(41) });
      const transactionId = await payThroughDemo(t, { ...jane, cookie: '' }, booking);
      expect((await listed(t.app, jane, booking.id))?.cancellable).toBe(true);

      const response = await cancel(t.app, jane, booking.id);
      expect(response.statusCode, response.body).toBe(200);
      const [refund, ...more] = await refundsOf(t, booking.id);
      expect(more).toEqual([]);
      expect(refund).toMatchObject({
        id: expect.stringMatching(/^re_demo_/),
        provider: 'demo',
        intent_id: transactionId,
        amount_cents: 8000,
        reason: 'Refunded because the patient cancelled in time',
      });
      const demoRefunds = await t.db
        .selectFrom('demo_refund')
        .select('id')
        .where('intent_id', '=', transactionId)
        .execute();
      expect(demoRefunds).toEqual([{ id: refund?.id }]);
      expect(await listed(t.app, jane, booking.id)).toMatchObject({
        status: 'cancelled',
        paid: true,
        cancellable: false,
        refund: { id: refund?.id },
      });
      expect(await patientAudit(t, booking.id, jane)).toEqual([
        'booking.cancelled',
        'booking.paid',
        'booking.refunded',
      ]);
      const mail = await smtp.waitForMail(
        (received) =>
          received.envelope.to.includes(jane.email) &&
          (received.text ?? '').includes(refund?.id ?? '-'),
      );
      expect(mail.text).toContain('Refunded: $80');
      expect(mail.text).toContain('As you asked');
      // Cancelling again: refused as cancelled already, and no second refund.
      expect((await cancel(t.app, jane, booking.id)).statusCode).toBe(409);
      expect(await refundsOf(t, booking.id)).toHaveLength(1);
    });

    it("after the deadline: 409 with the clinic's phone, and nothing changes", async () => {
      // Tomorrow at 10:00 and 11:00 AM: 22 and 23 hours away.
      const unpaid = await unpaidBooking(t, jane, { date: clinicDay(1) });
      const paid = await unpaidBooking(t, jane, {
        date: clinicDay(1),
        slot: '11:00 AM - 12:00 PM',
        treatment_id: 'teeth-whitening',
        treatment_name: 'Teeth Whitening',
      });
      await payThroughDemo(t, { ...jane, cookie: '' }, paid);
      const message = clinicCalendarMessages.cancellationNotice(24, PHONE);
      expect(message).toContain(PHONE);
      for (const booking of [unpaid, paid]) {
        expect((await listed(t.app, jane, booking.id))?.cancellable).toBe(false);
        const before = await bookingRow(t, booking.id);
        const response = await cancel(t.app, jane, booking.id);
        expect(response.statusCode).toBe(409);
        expect(response.json().message).toBe(message);
        expect(await bookingRow(t, booking.id)).toEqual(before);
        expect(await refundsOf(t, booking.id)).toEqual([]);
      }
    });

    it("a visit moved inside the notice is moved, but then cancelled only by phone: 409 with the clinic's phone", async () => {
      // Tomorrow at 11:30 AM: 23.5 hours away, as when a reminder's Reschedule link is used.
      const omar = await signedUpPatient(t.app, 'Omar Late');
      const booking = await unpaidBooking(t, omar, {
        date: clinicDay(1),
        slot: '11:30 AM - 12:00 PM',
      });
      await payThroughDemo(t, { ...omar, cookie: '' }, booking);
      const moved = await moveTo(t.app, omar, booking.id, 44);
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json().booking).toMatchObject({ date: mediumDay(44), cancellable: false });
      // Out of the notice now, but a cancellation would be the late one it was: by phone.
      expect((await listed(t.app, omar, booking.id))?.cancellable).toBe(false);
      const response = await cancel(t.app, omar, booking.id);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(clinicCalendarMessages.movedLate(PHONE));
      expect(await bookingRow(t, booking.id)).toMatchObject({ status: 'booked' });
      expect(await refundsOf(t, booking.id)).toEqual([]);
      // Moving it again keeps it so.
      const again = await moveTo(t.app, omar, booking.id, 45);
      expect(again.statusCode, again.body).toBe(200);
      expect((await cancel(t.app, omar, booking.id)).statusCode).toBe(409);
    });

    it('a visit moved before the notice stays cancellable', async () => {
      const booking = await unpaidBooking(t, jane, { date: clinicDay(46) });
      const moved = await moveTo(t.app, jane, booking.id, 47);
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json().booking.cancellable).toBe(true);
      expect((await cancel(t.app, jane, booking.id)).statusCode).toBe(200);
    });

    it('a booking that changed while its refund was made stays as it is, and the refund is on record', async () => {
      const booking = await unpaidBooking(t, jane, { date: clinicDay(42) });
      const transactionId = await payThroughDemo(t, { ...jane, cookie: '' }, booking);
      const provider = t.app.payments.provider;
      const refund = provider.refund.bind(provider);
      // The clinic marks the patient arrived while the provider makes the refund.
      vi.spyOn(provider, 'refund').mockImplementationOnce(async (intent) => {
        const made = await refund(intent);
        await t.db
          .updateTable('booking')
          .set({ status: 'arrived' })
          .where('id', '=', booking.id)
          .execute();
        return made;
      });
      const response = await cancel(t.app, jane, booking.id);
      expect(response.statusCode).toBe(409);
      const [recorded] = await refundsOf(t, booking.id);
      expect(recorded).toMatchObject({ provider: 'demo', intent_id: transactionId });
      expect(response.json().message).toBe(
        patientCancelRefusals(PHONE).changedAfterRefund(recorded?.id ?? ''),
      );
      expect(await bookingRow(t, booking.id)).toMatchObject({
        status: 'arrived',
        cancelled_at: null,
      });
      // The refund is in the audit log; the cancellation that did not happen is not.
      expect(await patientAudit(t, booking.id, jane)).toEqual(['booking.paid', 'booking.refunded']);
    });

    describe('24 hours of notice are 24 real hours across a daylight-saving change', () => {
      it('in spring (a 23-hour day), the wall clock says 24.5 hours but only 23.5 are left', async () => {
        const spring = dayOfLength(23, clinicDay(2));
        const booking = await unpaidBooking(t, jane, { date: spring, slot: '10:00 AM - 10:30 AM' });
        const dayBefore = addDays(spring, -1);
        vi.spyOn(clock, 'now').mockReturnValue(clinicTime(dayBefore, '09:30'));
        expect((await listed(t.app, jane, booking.id))?.cancellable).toBe(false);
        expect((await cancel(t.app, jane, booking.id)).statusCode).toBe(409);
        // Half an hour earlier, 24.5 real hours ahead: in time.
        vi.spyOn(clock, 'now').mockReturnValue(clinicTime(dayBefore, '08:30'));
        expect((await cancel(t.app, jane, booking.id)).statusCode).toBe(200);
      });

      it('in autumn (a 25-hour day), the wall clock says 23.5 hours but 24.5 are left', async () => {
        const autumn = dayOfLength(25, nextClinicDate('10-01'));
        const booking = await unpaidBooking(t, jane, { date: autumn, slot: '10:00 AM - 10:30 AM' });
        const dayBefore = addDays(autumn, -1);
        vi.spyOn(clock, 'now').mockReturnValue(clinicTime(dayBefore, '11:30'));
        expect((await cancel(t.app, jane, booking.id)).statusCode).toBe(409);
        vi.spyOn(clock, 'now').mockReturnValue(clinicTime(dayBefore, '10:30'));
        expect((await listed(t.app, jane, booking.id))?.cancellable).toBe(true);
        expect((await cancel(t.app, jane, booking.id)).statusCode).toBe(200);
      });
    });
  });

  describe('with Stripe', () => {
    let stripeApi: StripeStandIn;
    let t: TestApp;
    let jane: Patient;

    beforeAll(async () => {
      stripeApi = await startStripeStandIn({ secretKey: 'sk_test_policy_standin' });
      t = await buildTestApp({
        env: stripeStandInEnv(stripeApi, 'policy_standin'),
      });
      jane = await signedUpPatient(t.app, 'Jane Doe');
    });
    afterAll(async () => {
      await t?.close();
      await stripeApi?.close();
    });

    let day = 50;
    /** A booking of Jane's that Stripe charged and the portal marked paid, on a day of its own. */
    const paidByJane = () => paidThroughStripe(t, stripeApi, jane, clinicDay(++day));

    it("refunds a paid booking cancelled in time with Stripe's refunds API", async () => {
      const { booking, intentId } = await paidByJane();
      expect((await cancel(t.app, jane, booking.id)).statusCode).toBe(200);
      const made = stripeApi.refunds.get(intentId);
      expect(made?.amount).toBe(8000);
      expect(await refundsOf(t, booking.id)).toMatchObject([
        { id: made?.id, provider: 'stripe', intent_id: intentId },
      ]);
      expect((await bookingRow(t, booking.id)).status).toBe('cancelled');
    });

    it('a refund Stripe refuses: 409 saying so with the phone, and the booking stays booked and paid', async () => {
      const { booking, intentId } = await paidByJane();
      // The cardholder disputed the charge with their bank: Stripe refunds no disputed charge.
      stripeApi.disputed.add(intentId);
      const response = await cancel(t.app, jane, booking.id);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(
        patientCancelRefusals(PHONE).refundRefused(
          `Charge for ${intentId} has been charged back; cannot issue a refund.`,
        ),
      );
      expect(await bookingRow(t, booking.id)).toMatchObject({
        status: 'booked',
        paid_at: expect.any(String),
        cancelled_at: null,
      });
      expect(await refundsOf(t, booking.id)).toEqual([]);
    });

    it('a cancellation tried again after Stripe forgot its first refund request is cancelled with that refund', async () => {
      const { booking, intentId } = await paidByJane();
      // The first try's refund reached Stripe, but its answer never came back; a day later
      // Stripe no longer knows the idempotency key, and refuses a second refund of the charge.
      const { provider } = t.app.payments;
      const intent = await provider.retrieve(intentId);
      if (!intent) throw new Error('the stand-in has no such intent');
      const first = await provider.refund(intent);
      stripeApi.forgetIdempotencyKeys();
      const response = await cancel(t.app, jane, booking.id);
      expect(response.statusCode, response.body).toBe(200);
      expect((await bookingRow(t, booking.id)).status).toBe('cancelled');
      expect(await refundsOf(t, booking.id)).toMatchObject([
        { id: first.id, provider: 'stripe', intent_id: intentId, amount_cents: 8000 },
      ]);
      // Nothing more was given back than the one refund.
      expect(stripeApi.refunds.get(intentId)?.id).toBe(first.id);
    });

    it('Stripe out of reach: 502, and the booking stays booked and paid until it answers', async () => {
      const { booking } = await paidByJane();
      stripeApi.failing = true;
      try {
        const response = await cancel(t.app, jane, booking.id);
        expect(response.statusCode).toBe(502);
        expect(response.json().message).toMatch(/payment provider/);
      } finally {
        stripeApi.failing = false;
      }
      expect((await bookingRow(t, booking.id)).status).toBe('booked');
      expect((await cancel(t.app, jane, booking.id)).statusCode).toBe(200);
    });
  });
});

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  bookingRow,
  intentIdOf,
  type Patient,
  paymentCalls,
  signedUpPatient,
  unpaidBooking,
} from '../../test/payment-fixtures.js';
import { payByCard } from '../../test/security-fixtures.js';
import { type StripeStandIn, startStripeStandIn } from '../../test/stripe-stand-in.js';
import { bookingErrors } from '../bookings/errors.js';
import { paymentErrors } from './errors.js';

const cancel = (app: FastifyInstance, patient: Patient, id: string) =>
  app.inject({ method: 'DELETE', url: `/api/booking/${id}`, headers: bearer(patient.token) });

/**
 * A card charge never outlives its booking. Cancelling asks the payment provider first: a
 * payment the patient had started is cancelled there, so that no card can pay it afterwards;
 * when the charge went through meanwhile the booking is paid, and refunded as it is cancelled
 * (the cancellation policy). A charge that
 * still arrives for a cancelled booking is refunded through the provider and recorded.
 */
describe(`cancelling a booking whose payment is under way (${engine})`, () => {
  describe('with the demo gateway', () => {
    let t: TestApp;
    let jane: Patient;
    let calls: ReturnType<typeof paymentCalls>;

    beforeAll(async () => {
      // The first booking is the next day's: no cancellation notice in these cases.
      t = await buildTestApp({ env: { CANCELLATION_NOTICE_HOURS: '0' } });
      calls = paymentCalls(t.app);
      jane = await signedUpPatient(t.app, 'Jane Doe');
    });
    afterAll(async () => {
      await t?.close();
    });

    async function openPayment(bookingId: string) {
      const response = await calls.createIntent(jane, { bookingId });
      expect(response.statusCode).toBe(200);
      return (response.json() as { clientSecret: string }).clientSecret;
    }

    it('a charge that went through before its confirmation: the booking is paid, then cancelled and refunded', async () => {
      const booking = await unpaidBooking(t, jane);
      const clientSecret = await openPayment(booking.id);
      expect((await payByCard(t.app, jane, clientSecret)).json()).toMatchObject({
        paymentIntent: { status: 'succeeded' },
      });

      const response = await cancel(t.app, jane, booking.id);
      expect(response.statusCode).toBe(200);
      expect(await bookingRow(t, booking.id)).toMatchObject({
        status: 'cancelled',
        transaction_id: intentIdOf(clientSecret),
        paid_at: expect.any(String),
      });
      const refund = await t.db
        .selectFrom('refund')
        .selectAll()
        .where('intent_id', '=', intentIdOf(clientSecret))
        .executeTakeFirstOrThrow();
      expect(refund).toMatchObject({
        booking_id: booking.id,
        provider: 'demo',
        amount_cents: 8000,
      });
    });

    it('an open payment page is closed by the cancellation: its card can no longer pay', async () => {
      const booking = await unpaidBooking(t, jane);
      const clientSecret = await openPayment(booking.id);

      expect((await cancel(t.app, jane, booking.id)).statusCode).toBe(200);
      const paid = await payByCard(t.app, jane, clientSecret);
      expect(paid.statusCode).toBe(409);
      expect(paid.json().message).toBe(paymentErrors.bookingCancelled);
      expect(await bookingRow(t, booking.id)).toMatchObject({
        status: 'cancelled',
        paid_at: null,
        cancelled_by: jane.id,
      });
      const again = await calls.createIntent(jane, { bookingId: booking.id });
      expect(again.statusCode).toBe(409);
    });

    it('a charge confirmed for a booking cancelled meanwhile is refunded and recorded', async () => {
      const booking = await unpaidBooking(t, jane);
      const clientSecret = await openPayment(booking.id);
      expect((await payByCard(t.app, jane, clientSecret)).statusCode).toBe(200);
      // The race: the booking was cancelled between the card payment and its confirmation.
      await t.db
        .updateTable('booking')
        .set({ status: 'cancelled', cancelled_at: new Date().toISOString() })
        .where('id', '=', booking.id)
        .execute();

      const confirmed = await calls.confirm(jane, booking.id, intentIdOf(clientSecret));
      expect(confirmed.statusCode).toBe(409);
      expect(confirmed.json().message).toBe(paymentErrors.refundedCancelled);
      const refund = await t.db
        .selectFrom('refund')
        .selectAll()
        .where('intent_id', '=', intentIdOf(clientSecret))
        .executeTakeFirstOrThrow();
      expect(refund).toMatchObject({
        id: expect.stringMatching(/^re_demo_/),
        booking_id: booking.id,
        provider: 'demo',
        amount_cents: 8000,
      });
      expect((await bookingRow(t, booking.id)).paid_at).toBeNull();
      // Confirmed again: the same refund, not a second one.
      await calls.confirm(jane, booking.id, intentIdOf(clientSecret));
      const refunds = await t.db
        .selectFrom('demo_refund')
        .select('id')
        .where('intent_id', '=', intentIdOf(clientSecret))
        .execute();
      expect(refunds).toEqual([{ id: refund.id }]);
    });
  });

  describe('with Stripe', () => {
    let stripeApi: StripeStandIn;
    let t: TestApp;
    let jane: Patient;
    let calls: ReturnType<typeof paymentCalls>;

    beforeAll(async () => {
      stripeApi = await startStripeStandIn({ secretKey: 'sk_test_cancel_standin' });
      t = await buildTestApp({
        env: {
          STRIPE_SECRET_KEY: stripeApi.secretKey,
          STRIPE_PUBLISHABLE_KEY: 'pk_test_cancel_standin',
          STRIPE_WEBHOOK_SECRET: 'whsec_cancel_standin',
          STRIPE_API_BASE: stripeApi.url,
          CANCELLATION_NOTICE_HOURS: '0',
        },
      });
      calls = paymentCalls(t.app);
      jane = await signedUpPatient(t.app, 'Jane Doe');
    });
    afterAll(async () => {
      await t?.close();
      await stripeApi?.close();
    });

    async function openIntent(bookingId: string) {
      const response = await calls.createIntent(jane, { bookingId });
      expect(response.statusCode).toBe(200);
      const intent = stripeApi.intents.get(intentIdOf(response.json().clientSecret));
      if (!intent) throw new Error('the stand-in has no such intent');
      return intent;
    }

    it('a charge Stripe took before its confirmation reached us: the booking is paid, then cancelled and refunded at Stripe', async () => {
      const booking = await unpaidBooking(t, jane);
      const intent = await openIntent(booking.id);
      stripeApi.succeed(intent.id);

      const response = await cancel(t.app, jane, booking.id);
      expect(response.statusCode).toBe(200);
      expect(await bookingRow(t, booking.id)).toMatchObject({
        status: 'cancelled',
        transaction_id: intent.id,
      });
      expect(stripeApi.refunds.has(intent.id)).toBe(true);
    });

    it('a charge Stripe is still processing: 409, and the booking stays', async () => {
      const booking = await unpaidBooking(t, jane);
      const intent = await openIntent(booking.id);
      intent.status = 'processing';

      const response = await cancel(t.app, jane, booking.id);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(bookingErrors.paymentProcessing);
      expect(await bookingRow(t, booking.id)).toMatchObject({ status: 'booked', paid_at: null });
    });

    it('an intent not yet paid is cancelled at Stripe, then the booking', async () => {
      const booking = await unpaidBooking(t, jane);
      const intent = await openIntent(booking.id);

      expect((await cancel(t.app, jane, booking.id)).statusCode).toBe(200);
      expect(intent.status).toBe('canceled');
      expect((await bookingRow(t, booking.id)).status).toBe('cancelled');
    });
  });
});

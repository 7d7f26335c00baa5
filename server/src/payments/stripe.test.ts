import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  bookingRow,
  intentIdOf,
  isReceiptFor,
  type Patient,
  paymentCalls,
  paymentRows,
  signedUpPatient,
  unpaidBooking,
} from '../../test/payment-fixtures.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { type StripeStandIn, startStripeStandIn } from '../../test/stripe-stand-in.js';
import { paymentErrors } from './errors.js';
import { webhookErrors } from './webhook.js';

const WEBHOOK_SECRET = 'whsec_test_portal_signing_secret';

describe(`paying a booking through Stripe, against a local stand-in of its API (${engine})`, () => {
  let stripeApi: StripeStandIn;
  let smtp: TestSmtpServer;
  let t: TestApp;
  let jane: Patient;
  let omar: Patient;
  let calls: ReturnType<typeof paymentCalls>;

  /** What Stripe sends the webhook endpoint, signed with `secret`. */
  const deliver = (payload: string, secret = WEBHOOK_SECRET) =>
    t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
      },
      payload,
    });

  const createdIntents = () =>
    stripeApi.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');

  async function intentFor(patient: Patient, bookingId: string) {
    const response = await calls.createIntent(patient, { bookingId, price: 80 });
    expect(response.statusCode).toBe(200);
    const { clientSecret } = response.json() as { clientSecret: string };
    const intent = stripeApi.intents.get(intentIdOf(clientSecret));
    if (!intent) throw new Error('the stand-in has no such intent');
    return intent;
  }

  beforeAll(async () => {
    [stripeApi, smtp] = await Promise.all([
      startStripeStandIn({ secretKey: 'sk_test_portal_standin' }),
      startTestSmtpServer(),
    ]);
    t = await buildTestApp({
      env: {
        SMTP_URL: smtp.url,
        STRIPE_SECRET_KEY: 'sk_test_portal_standin',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_portal_standin',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: stripeApi.url,
      },
    });
    calls = paymentCalls(t.app);
    [jane, omar] = await Promise.all([
      signedUpPatient(t.app, 'Jane Doe'),
      signedUpPatient(t.app, 'Omar Haddad'),
    ]);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([stripeApi.close(), smtp.close()]);
  });
  beforeEach(() => {
    stripeApi.failing = false;
    stripeApi.requests.length = 0;
    smtp.clear();
  });

  it('gives the payment page the publishable key, and lets exactly Stripe.js in', async () => {
    const response = await t.app.inject('/api/payment-config');
    expect(response.json()).toEqual({
      provider: 'stripe',
      publishableKey: 'pk_test_portal_standin',
    });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://js.stripe.com;");
    expect(csp).toContain('frame-src https://js.stripe.com https://hooks.stripe.com;');
    expect(csp).toContain("connect-src 'self' https://api.stripe.com;");
    expect(csp).not.toMatch(/\*|unsafe/);
  });

  it('offers no demo gateway', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/demo-gateway/confirm' });
    expect(response.statusCode).toBe(404);
  });

  describe('creating the payment intent', () => {
    it('asks Stripe for the stored price in cents, naming the booking, keyed by booking and amount', async () => {
      const booking = await unpaidBooking(t, jane, { price_cents: 8000 });
      const response = await calls.createIntent(jane, { bookingId: booking.id, price: 80 });
      expect(response.statusCode).toBe(200);

      expect(createdIntents()).toHaveLength(1);
      const [request] = createdIntents();
      expect(request?.headers.authorization).toBe('Bearer sk_test_portal_standin');
      expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(request?.headers['idempotency-key']).toBe(`booking-${booking.id}-8000-usd`);
      expect(request?.params).toEqual({
        amount: '8000',
        currency: 'usd',
        allowed_payment_method_types: ['card'],
        metadata: { bookingId: booking.id },
        receipt_email: jane.email,
      });
      const intent = [...stripeApi.intents.values()].find(
        (candidate) => candidate.metadata.bookingId === booking.id,
      );
      expect(response.json()).toEqual({ clientSecret: intent?.client_secret });
      expect(
        await t.db
          .selectFrom('payment_intent')
          .selectAll()
          .where('booking_id', '=', booking.id)
          .execute(),
      ).toEqual([
        expect.objectContaining({ provider: 'stripe', intent_id: intent?.id, amount_cents: 8000 }),
      ]);
    });

    it('reuses the booking’s intent when asked again, reading its client secret from Stripe', async () => {
      const booking = await unpaidBooking(t, jane);
      const first = await intentFor(jane, booking.id);
      const again = await calls.createIntent(jane, { bookingId: booking.id });
      expect(again.json()).toEqual({ clientSecret: first.client_secret });
      expect(createdIntents()).toHaveLength(1);
      expect(stripeApi.requests.at(-1)).toMatchObject({
        method: 'GET',
        path: `/v1/payment_intents/${first.id}`,
      });
    });

    it('gets the same intent from Stripe by its idempotency key should our record of it be lost', async () => {
      const booking = await unpaidBooking(t, jane);
      const first = await intentFor(jane, booking.id);
      await t.db.deleteFrom('payment_intent').where('booking_id', '=', booking.id).execute();
      const again = await calls.createIntent(jane, { bookingId: booking.id });
      expect(again.json()).toEqual({ clientSecret: first.client_secret });
      expect(createdIntents().map((r) => r.headers['idempotency-key'])).toEqual([
        `booking-${booking.id}-8000-usd`,
        `booking-${booking.id}-8000-usd`,
      ]);
    });

    it('replaces an intent cancelled at Stripe with a new one', async () => {
      const booking = await unpaidBooking(t, jane);
      const first = await intentFor(jane, booking.id);
      stripeApi.cancel(first.id);
      const second = await intentFor(jane, booking.id);
      expect(second.id).not.toBe(first.id);
      expect(createdIntents().at(-1)?.headers['idempotency-key']).toBe(
        `booking-${booking.id}-8000-usd-after-${first.id}`,
      );
    });

    it('refuses a client price other than the stored one without asking Stripe', async () => {
      const booking = await unpaidBooking(t, jane);
      const response = await calls.createIntent(jane, { bookingId: booking.id, price: 8 });
      expect(response.statusCode).toBe(400);
      expect(createdIntents()).toEqual([]);
    });

    it("refuses another patient's booking without asking Stripe", async () => {
      const booking = await unpaidBooking(t, jane);
      expect((await calls.createIntent(omar, { bookingId: booking.id })).statusCode).toBe(403);
      expect(stripeApi.requests).toEqual([]);
    });

    it('says so when Stripe cannot be reached (502), and may be tried again', async () => {
      const booking = await unpaidBooking(t, jane);
      stripeApi.failing = true;
      const response = await calls.createIntent(jane, { bookingId: booking.id });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toMatchObject({ message: paymentErrors.providerUnavailable });
      stripeApi.failing = false;
      expect((await calls.createIntent(jane, { bookingId: booking.id })).statusCode).toBe(200);
    });
  });

  describe('confirming the payment (PATCH /api/booking/{id})', () => {
    it('asks Stripe about the intent, and marks the booking paid once it has succeeded', async () => {
      const booking = await unpaidBooking(t, jane);
      const intent = await intentFor(jane, booking.id);

      const early = await calls.confirm(jane, booking.id, intent.id);
      expect(early.statusCode).toBe(400);
      expect(early.json()).toMatchObject({ message: paymentErrors.notSucceeded });

      stripeApi.succeed(intent.id);
      stripeApi.requests.length = 0;
      const response = await calls.confirm(jane, booking.id, intent.id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        modifiedCount: 1,
        booking: { paid: true, transactionId: intent.id },
      });
      expect(stripeApi.requests).toMatchObject([
        { method: 'GET', path: `/v1/payment_intents/${intent.id}` },
      ]);
      expect(await paymentRows(t, booking.id)).toEqual([
        expect.objectContaining({
          provider: 'stripe',
          transaction_id: intent.id,
          amount_cents: 8000,
        }),
      ]);
      await smtp.waitForMail(isReceiptFor(intent.id));
    });

    it('leaves the booking unpaid for a transaction id Stripe does not know', async () => {
      const booking = await unpaidBooking(t, jane);
      const response = await calls.confirm(jane, booking.id, 'pi_3MadeUpByTheBrowser');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: paymentErrors.noSuchPayment });
      expect(stripeApi.requests.at(-1)?.path).toBe('/v1/payment_intents/pi_3MadeUpByTheBrowser');
      expect((await bookingRow(t, booking.id)).paid_at).toBeNull();
    });

    it("leaves the booking unpaid for another booking's succeeded payment", async () => {
      const other = await unpaidBooking(t, omar);
      const mine = await unpaidBooking(t, jane);
      const othersIntent = await intentFor(omar, other.id);
      stripeApi.succeed(othersIntent.id);
      const response = await calls.confirm(jane, mine.id, othersIntent.id);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: paymentErrors.otherBooking });
      expect((await bookingRow(t, mine.id)).paid_at).toBeNull();
    });

    it('says so when Stripe cannot be reached (502), leaving the booking unpaid', async () => {
      const booking = await unpaidBooking(t, jane);
      const intent = await intentFor(jane, booking.id);
      stripeApi.succeed(intent.id);
      stripeApi.failing = true;
      const response = await calls.confirm(jane, booking.id, intent.id);
      expect(response.statusCode).toBe(502);
      expect((await bookingRow(t, booking.id)).paid_at).toBeNull();
    });
  });

  describe("Stripe's webhook", () => {
    it('marks the booking paid on payment_intent.succeeded, with a receipt', async () => {
      const booking = await unpaidBooking(t, jane);
      const intent = stripeApi.succeed((await intentFor(jane, booking.id)).id);
      const response = await deliver(stripeApi.event('payment_intent.succeeded', intent));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ received: true, duplicate: false });
      expect(await bookingRow(t, booking.id)).toMatchObject({ transaction_id: intent.id });
      expect(await paymentRows(t, booking.id)).toHaveLength(1);
      await smtp.waitForMail(isReceiptFor(intent.id));

      // The browser's confirmation arriving afterwards finds the work done.
      const patch = await calls.confirm(jane, booking.id, intent.id);
      expect(patch.json()).toMatchObject({ modifiedCount: 0, booking: { paid: true } });
    });

    it('changes nothing when an event is delivered again', async () => {
      const booking = await unpaidBooking(t, jane);
      const intent = stripeApi.succeed((await intentFor(jane, booking.id)).id);
      const event = stripeApi.event('payment_intent.succeeded', intent);
      await deliver(event);
      await smtp.waitForMail(isReceiptFor(intent.id));
      const paid = await bookingRow(t, booking.id);

      const replay = await deliver(event);
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual({ received: true, duplicate: true });
      expect(await bookingRow(t, booking.id)).toEqual(paid);
      expect(await paymentRows(t, booking.id)).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.messages.filter(isReceiptFor(intent.id))).toHaveLength(1);
    });

    it('handles concurrent deliveries of one event once', async () => {
      const booking = await unpaidBooking(t, jane);
      const intent = stripeApi.succeed((await intentFor(jane, booking.id)).id);
      const event = stripeApi.event('payment_intent.succeeded', intent);
      const answers = await Promise.all([deliver(event), deliver(event), deliver(event)]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
      const duplicates = answers.map((answer) => answer.json().duplicate as boolean);
      expect(duplicates.toSorted()).toEqual([false, true, true]);
      expect(await paymentRows(t, booking.id)).toHaveLength(1);
    });

    it('reads the body as Stripe sends it, with a charset in its content type', async () => {
      const booking = await unpaidBooking(t, jane);
      const intent = stripeApi.succeed((await intentFor(jane, booking.id)).id);
      const payload = stripeApi.event('payment_intent.succeeded', intent);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({
            payload,
            secret: WEBHOOK_SECRET,
          }),
        },
        payload,
      });
      expect(response.statusCode).toBe(200);
      expect((await bookingRow(t, booking.id)).transaction_id).toBe(intent.id);
    });

    it('refuses a wrong signature, a tampered body and a missing signature with 400', async () => {
      const booking = await unpaidBooking(t, jane);
      const intent = stripeApi.succeed((await intentFor(jane, booking.id)).id);
      const event = stripeApi.event('payment_intent.succeeded', intent);

      const forged = await deliver(event, 'whsec_someone_elses_secret');
      expect(forged.statusCode).toBe(400);
      expect(forged.json()).toMatchObject({ message: webhookErrors.badSignature });

      const tampered = await t.app.inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({
            payload: event,
            secret: WEBHOOK_SECRET,
          }),
        },
        // The same event, re-serialised: not the bytes that were signed.
        payload: JSON.stringify(JSON.parse(event), null, 2),
      });
      expect(tampered.statusCode).toBe(400);

      const unsigned = await t.app.inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: { 'content-type': 'application/json' },
        payload: event,
      });
      expect(unsigned.statusCode).toBe(400);
      expect(unsigned.json()).toMatchObject({ message: webhookErrors.noSignature });

      expect((await bookingRow(t, booking.id)).paid_at).toBeNull();
      expect(await t.db.selectFrom('stripe_event').selectAll().execute()).not.toContainEqual(
        expect.objectContaining({ id: JSON.parse(event).id }),
      );
      // Refused, and said so in one short line: neither the body (a patient's address, or a
      // megabyte anyone may send) nor the signature is written to the log.
      const refusals = t.logs.filter((line) => line.msg?.includes('bad signature'));
      expect(refusals).toHaveLength(2);
      for (const line of refusals) {
        expect(JSON.stringify(line)).not.toContain(intent.id);
        expect(JSON.stringify(line)).not.toContain('v1=');
      }
    });

    it('does not mark a booking paid by a payment of another amount, and says so in the log', async () => {
      const booking = await unpaidBooking(t, jane);
      const intent = stripeApi.succeed((await intentFor(jane, booking.id)).id);
      const response = await deliver(
        stripeApi.event('payment_intent.succeeded', { ...intent, amount: 100 }),
      );
      expect(response.statusCode).toBe(200);
      expect((await bookingRow(t, booking.id)).paid_at).toBeNull();
      expect(t.logs).toContainEqual(
        expect.objectContaining({ msg: 'a succeeded Stripe payment does not match its booking' }),
      );
    });

    it('acknowledges other events without changing anything', async () => {
      const booking = await unpaidBooking(t, jane);
      const intent = await intentFor(jane, booking.id);
      const failed = await deliver(stripeApi.event('payment_intent.payment_failed', intent));
      expect(failed.statusCode).toBe(200);
      expect((await bookingRow(t, booking.id)).paid_at).toBeNull();
    });

    it('refunds a charge whose booking does not exist, and logs it', async () => {
      const booking = await unpaidBooking(t, jane);
      const intent = await intentFor(jane, booking.id);
      intent.metadata = { bookingId: randomUUID() };
      stripeApi.succeed(intent.id);
      const response = await deliver(stripeApi.event('payment_intent.succeeded', intent));
      expect(response.statusCode).toBe(200);
      expect(stripeApi.refunds.get(intent.id)).toMatchObject({ amount: 8000 });
      const refund = await t.db
        .selectFrom('refund')
        .selectAll()
        .where('intent_id', '=', intent.id)
        .executeTakeFirstOrThrow();
      expect(refund).toMatchObject({
        id: stripeApi.refunds.get(intent.id)?.id,
        provider: 'stripe',
        amount_cents: 8000,
      });
      expect(t.logs.some((line) => /refunded a payment/.test(line.msg))).toBe(true);
      expect((await bookingRow(t, booking.id)).paid_at).toBeNull();
    });

    it('refunds a charge that arrives after its booking was cancelled', async () => {
      const booking = await unpaidBooking(t, jane);
      const intent = await intentFor(jane, booking.id);
      await t.db
        .updateTable('booking')
        .set({ status: 'cancelled', cancelled_at: new Date().toISOString() })
        .where('id', '=', booking.id)
        .execute();
      stripeApi.succeed(intent.id);
      const event = stripeApi.event('payment_intent.succeeded', intent);
      const response = await deliver(event);
      expect(response.statusCode).toBe(200);
      expect(stripeApi.refunds.get(intent.id)).toBeDefined();
      expect((await bookingRow(t, booking.id)).paid_at).toBeNull();
      // The same event delivered again is acknowledged as a duplicate and refunds nothing more.
      const again = await deliver(event);
      expect(again.json()).toEqual({ received: true, duplicate: true });
      const refundCalls = stripeApi.requests.filter(
        (r) => r.path === '/v1/refunds' && r.params.payment_intent === intent.id,
      );
      expect(refundCalls).toHaveLength(1);
    });
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  bookingRow,
  intentIdOf,
  isReceiptFor,
  type Patient,
  paymentCalls,
  paymentRows,
  signedUpAdmin,
  signedUpPatient,
  unpaidBooking,
} from '../../test/payment-fixtures.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { bookingErrors } from '../bookings/errors.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { paymentErrors } from './errors.js';

const goodCard = {
  number: '4242 4242 4242 4242',
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 3,
  cvc: '123',
  postalCode: '10001',
};

describe(`paying a booking through the demo gateway (${engine})`, () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let jane: Patient;
  let omar: Patient;
  let admin: Patient;
  let calls: ReturnType<typeof paymentCalls>;

  /** The demo card form's Pay button. */
  const payWithCard = (patient: Patient, clientSecret: string, card = goodCard) =>
    t.app.inject({
      method: 'POST',
      url: '/api/demo-gateway/confirm',
      headers: bearer(patient.token),
      payload: {
        clientSecret,
        card,
        billingDetails: { name: patient.name, email: patient.email },
      },
    });

  /** The payment page up to a successful card payment: answers the intent id. */
  async function paidAtTheGateway(patient: Patient, bookingId: string): Promise<string> {
    const intent = await calls.createIntent(patient, { bookingId, price: 80 });
    const { clientSecret } = intent.json() as { clientSecret: string };
    const paid = await payWithCard(patient, clientSecret);
    expect(paid.json()).toMatchObject({ paymentIntent: { status: 'succeeded' } });
    return intentIdOf(clientSecret);
  }

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await buildTestApp({ env: { SMTP_URL: smtp.url } });
    calls = paymentCalls(t.app);
    [jane, omar, admin] = await Promise.all([
      signedUpPatient(t.app, 'Jane Doe'),
      signedUpPatient(t.app, 'Omar Haddad'),
      signedUpAdmin(t),
    ]);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => smtp.clear());

  it('tells the payment page to use the demo gateway when Stripe is not configured', async () => {
    const response = await t.app.inject('/api/payment-config');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ provider: 'demo' });
  });

  describe('the booking the payment page shows', () => {
    it('is read by its patient, with the date in medium format and the price in dollars', async () => {
      const booking = await unpaidBooking(t, jane, { date: clinicDay(63), price_cents: 8950 });
      const response = await calls.readBooking(jane, booking.id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        _id: booking.id,
        patientName: 'Jane Doe',
        patientMail: jane.email,
        date: mediumDay(63),
        slot: '10:00 AM - 10:30 AM',
        treatment: 'Teeth Cleaning',
        treatmentId: 'teeth-cleaning',
        price: 89.5,
        phone: '+1 555 010 2030',
        age: 34,
        paid: false,
        transactionId: null,
        status: 'booked',
        cancellable: true,
        cancelReason: null,
        refund: null,
        doctor: null,
      });
    });

    it('is read by an administrator, but not by another patient (403)', async () => {
      const booking = await unpaidBooking(t, jane);
      expect((await calls.readBooking(admin, booking.id)).statusCode).toBe(200);
      const response = await calls.readBooking(omar, booking.id);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ message: bookingErrors.notYourBookingToSee });
    });

    it('is 404 for an unknown or malformed id, and 401 without a session', async () => {
      expect((await calls.readBooking(jane, randomUUID())).statusCode).toBe(404);
      const malformed = await calls.readBooking(jane, 'not-a-booking-id');
      expect(malformed.statusCode).toBe(404);
      expect(malformed.json()).toMatchObject({ message: 'There is no such booking.' });
      const anonymous = await t.app.inject(`/api/booking/${randomUUID()}`);
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('creating the payment intent', () => {
    it('answers a client secret for the stored price, and the same one when asked again', async () => {
      const booking = await unpaidBooking(t, jane);
      const first = await calls.createIntent(jane, { bookingId: booking.id, price: 80 });
      expect(first.statusCode).toBe(200);
      const { clientSecret } = first.json() as { clientSecret: string };
      expect(clientSecret).toMatch(/^pi_demo_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/);

      const again = await calls.createIntent(jane, { bookingId: booking.id });
      expect(again.json()).toEqual({ clientSecret });
      const intents = await t.db
        .selectFrom('demo_payment_intent')
        .selectAll()
        .where('booking_id', '=', booking.id)
        .execute();
      expect(intents).toHaveLength(1);
      expect(intents[0]).toMatchObject({ amount_cents: 8000, currency: 'usd' });
    });

    it('gives concurrent requests for one booking one intent', async () => {
      const booking = await unpaidBooking(t, jane);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => calls.createIntent(jane, { bookingId: booking.id })),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
      expect(new Set(answers.map((answer) => answer.json().clientSecret)).size).toBe(1);
    });

    it('refuses a price other than the stored one, and charges the stored one regardless', async () => {
      const booking = await unpaidBooking(t, jane);
      const response = await calls.createIntent(jane, { bookingId: booking.id, price: 1 });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: 'The price does not match this booking.' });
      expect(
        (await calls.createIntent(jane, { bookingId: booking.id, price: 80.01 })).statusCode,
      ).toBe(400);
      expect(
        await t.db
          .selectFrom('demo_payment_intent')
          .where('booking_id', '=', booking.id)
          .selectAll()
          .execute(),
      ).toEqual([]);
    });

    it("refuses another patient's booking (403), an unknown one and a malformed id (404)", async () => {
      const booking = await unpaidBooking(t, jane);
      const foreign = await calls.createIntent(omar, { bookingId: booking.id, price: 80 });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json()).toMatchObject({ message: paymentErrors.notYourBookingToPay });
      expect((await calls.createIntent(jane, { bookingId: randomUUID() })).statusCode).toBe(404);
      expect((await calls.createIntent(jane, { bookingId: '../etc/passwd' })).statusCode).toBe(404);
      const anonymous = await t.app.inject({
        method: 'POST',
        url: '/api/create-payment-intent',
        payload: { bookingId: booking.id },
      });
      expect(anonymous.statusCode).toBe(401);
    });

    it('refuses a paid booking (409)', async () => {
      const booking = await unpaidBooking(t, jane);
      const intentId = await paidAtTheGateway(jane, booking.id);
      await calls.confirm(jane, booking.id, intentId);
      const response = await calls.createIntent(jane, { bookingId: booking.id });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ message: 'This booking is already paid.' });
    });

    it('settles a booking whose intent succeeded but whose confirmation never arrived', async () => {
      const booking = await unpaidBooking(t, jane);
      const intentId = await paidAtTheGateway(jane, booking.id);
      // The patient closed the page before it could PATCH the booking, and came back.
      const response = await calls.createIntent(jane, { bookingId: booking.id });
      expect(response.statusCode).toBe(409);
      expect(await bookingRow(t, booking.id)).toMatchObject({ transaction_id: intentId });
      expect(await paymentRows(t, booking.id)).toHaveLength(1);
    });
  });

  describe("the demo gateway's card form", () => {
    it("pays with Stripe's 4242 test card and records only the last four digits", async () => {
      const booking = await unpaidBooking(t, jane);
      const { clientSecret } = (
        await calls.createIntent(jane, { bookingId: booking.id })
      ).json() as { clientSecret: string };
      const response = await payWithCard(jane, clientSecret);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        paymentIntent: { id: intentIdOf(clientSecret), status: 'succeeded' },
      });
      const intent = await t.db
        .selectFrom('demo_payment_intent')
        .selectAll()
        .where('booking_id', '=', booking.id)
        .executeTakeFirstOrThrow();
      expect(intent).toMatchObject({ status: 'succeeded', last4: '4242', attempts: 1 });
      expect(JSON.stringify(intent)).not.toMatch(/4242424242424242|4242 4242 4242 4242|"123"/);
      // The card form says so; the booking is paid only once the server confirms it.
      expect((await bookingRow(t, booking.id)).paid_at).toBeNull();
    });

    it.each([
      ['4000 0000 0000 0002', 'card_declined', 'Your card was declined.'],
      ['4000 0000 0000 9995', 'card_declined', 'Your card has insufficient funds.'],
      ['4242 4242 4242 4241', 'incorrect_number', 'Your card number is incorrect.'],
    ])(
      'answers %s with the card error %s as Stripe.js would (200)',
      async (number, code, message) => {
        const booking = await unpaidBooking(t, jane);
        const { clientSecret } = (
          await calls.createIntent(jane, { bookingId: booking.id })
        ).json() as { clientSecret: string };
        const response = await payWithCard(jane, clientSecret, { ...goodCard, number });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ error: { type: 'card_error', code, message } });
        const intent = await t.db
          .selectFrom('demo_payment_intent')
          .select(['status', 'last4', 'last_error_code', 'attempts'])
          .where('booking_id', '=', booking.id)
          .executeTakeFirstOrThrow();
        expect(intent).toMatchObject({
          status: 'requires_payment_method',
          last4: number.slice(-4),
        });
      },
    );

    it('records every attempt and lets a declined patient try another card', async () => {
      const booking = await unpaidBooking(t, jane);
      const { clientSecret } = (
        await calls.createIntent(jane, { bookingId: booking.id })
      ).json() as { clientSecret: string };
      await payWithCard(jane, clientSecret, { ...goodCard, number: '4000000000009995' });
      const declined = await t.db
        .selectFrom('demo_payment_intent')
        .select(['status', 'last_error_code', 'attempts'])
        .where('booking_id', '=', booking.id)
        .executeTakeFirstOrThrow();
      expect(declined).toEqual({
        status: 'requires_payment_method',
        last_error_code: 'insufficient_funds',
        attempts: 1,
      });
      expect((await payWithCard(jane, clientSecret)).json()).toMatchObject({
        paymentIntent: { status: 'succeeded' },
      });
      const paid = await t.db
        .selectFrom('demo_payment_intent')
        .select(['status', 'last_error_code', 'attempts'])
        .where('booking_id', '=', booking.id)
        .executeTakeFirstOrThrow();
      expect(paid).toEqual({ status: 'succeeded', last_error_code: null, attempts: 2 });
    });

    it("refuses to charge another patient's booking (403) or an unknown client secret (404)", async () => {
      const booking = await unpaidBooking(t, jane);
      const { clientSecret } = (
        await calls.createIntent(jane, { bookingId: booking.id })
      ).json() as { clientSecret: string };
      expect((await payWithCard(omar, clientSecret)).statusCode).toBe(403);
      expect((await payWithCard(jane, `${clientSecret}x`)).statusCode).toBe(404);
      const intent = await t.db
        .selectFrom('demo_payment_intent')
        .select(['status', 'attempts'])
        .where('booking_id', '=', booking.id)
        .executeTakeFirstOrThrow();
      expect(intent).toEqual({ status: 'requires_payment_method', attempts: 0 });
    });
  });

  describe('confirming the payment (PATCH /api/booking/{id})', () => {
    it('marks the booking paid once the gateway confirms, stores the payment and mails a receipt', async () => {
      const booking = await unpaidBooking(t, jane);
      const intentId = await paidAtTheGateway(jane, booking.id);
      const response = await calls.confirm(jane, booking.id, intentId);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        modifiedCount: 1,
        booking: { _id: booking.id, paid: true, transactionId: intentId },
      });
      expect(await paymentRows(t, booking.id)).toEqual([
        expect.objectContaining({
          provider: 'demo',
          transaction_id: intentId,
          amount_cents: 8000,
          currency: 'usd',
        }),
      ]);
      const mail = await smtp.waitForMail(isReceiptFor(intentId));
      expect(mail.subject).toMatch(/^Payment received: \$80 for Teeth Cleaning on /);
      const read = await calls.readBooking(jane, booking.id);
      expect(read.json()).toMatchObject({ paid: true, transactionId: intentId });
    });

    it('changes nothing when repeated, and sends no second receipt', async () => {
      const booking = await unpaidBooking(t, jane);
      const intentId = await paidAtTheGateway(jane, booking.id);
      await calls.confirm(jane, booking.id, intentId);
      await smtp.waitForMail(isReceiptFor(intentId));
      const paidAt = (await bookingRow(t, booking.id)).paid_at;

      const again = await calls.confirm(jane, booking.id, intentId);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ modifiedCount: 0, booking: { paid: true } });
      expect((await bookingRow(t, booking.id)).paid_at).toBe(paidAt);
      expect(await paymentRows(t, booking.id)).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.messages.filter(isReceiptFor(intentId))).toHaveLength(1);
    });

    it('stores one payment and mails one receipt when confirmations of one booking race', async () => {
      const booking = await unpaidBooking(t, jane);
      const intentId = await paidAtTheGateway(jane, booking.id);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => calls.confirm(jane, booking.id, intentId)),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200]);
      const counts = answers.map((answer) => answer.json().modifiedCount as number);
      expect(counts.toSorted()).toEqual([0, 0, 0, 0, 1]);
      expect(await paymentRows(t, booking.id)).toHaveLength(1);
      await smtp.waitForMail(isReceiptFor(intentId));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.messages.filter(isReceiptFor(intentId))).toHaveLength(1);
    });

    it('leaves the booking unpaid for a made-up transaction id', async () => {
      const booking = await unpaidBooking(t, jane);
      for (const forged of [
        'pi_madeUp123',
        'pi_demo_doesNotExist',
        'anything; drop table booking',
      ]) {
        const response = await calls.confirm(jane, booking.id, forged);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ message: paymentErrors.noSuchPayment });
      }
      expect(await bookingRow(t, booking.id)).toMatchObject({
        paid_at: null,
        transaction_id: null,
      });
      expect(await paymentRows(t, booking.id)).toEqual([]);
    });

    it('leaves the booking unpaid for a payment that has not succeeded', async () => {
      const booking = await unpaidBooking(t, jane);
      const { clientSecret } = (
        await calls.createIntent(jane, { bookingId: booking.id })
      ).json() as { clientSecret: string };
      await payWithCard(jane, clientSecret, { ...goodCard, number: '4000000000000002' });
      const response = await calls.confirm(jane, booking.id, intentIdOf(clientSecret));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: paymentErrors.notSucceeded });
      expect((await bookingRow(t, booking.id)).paid_at).toBeNull();
    });

    it("refuses a payment made for another booking, even the patient's own", async () => {
      const paidOne = await unpaidBooking(t, jane);
      const unpaidOne = await unpaidBooking(t, jane);
      const intentId = await paidAtTheGateway(jane, paidOne.id);
      const response = await calls.confirm(jane, unpaidOne.id, intentId);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: paymentErrors.otherBooking });
      expect((await bookingRow(t, unpaidOne.id)).paid_at).toBeNull();
    });

    it('refuses a payment for another amount than the booking’s price', async () => {
      const booking = await unpaidBooking(t, jane);
      const intentId = await paidAtTheGateway(jane, booking.id);
      // The booking's stored price is not what the gateway charged.
      await t.db
        .updateTable('booking')
        .set({ price_cents: 9000 })
        .where('id', '=', booking.id)
        .execute();
      const response = await calls.confirm(jane, booking.id, intentId);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: paymentErrors.otherAmount });
      expect((await bookingRow(t, booking.id)).paid_at).toBeNull();
    });

    it("refuses to patch another patient's booking, even with its real payment (403)", async () => {
      const booking = await unpaidBooking(t, jane);
      const intentId = await paidAtTheGateway(jane, booking.id);
      const response = await calls.confirm(omar, booking.id, intentId);
      expect(response.statusCode).toBe(403);
      expect((await bookingRow(t, booking.id)).paid_at).toBeNull();
      const byAdmin = await calls.confirm(admin, booking.id, intentId);
      expect(byAdmin.statusCode).toBe(403);
    });

    it('refuses an appointmentId other than the booking in the address', async () => {
      const booking = await unpaidBooking(t, jane);
      const intentId = await paidAtTheGateway(jane, booking.id);
      const response = await calls.confirm(jane, booking.id, intentId, randomUUID());
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: paymentErrors.appointmentMismatch });
    });

    it('answers 409 for a paid booking confirmed with another payment', async () => {
      const booking = await unpaidBooking(t, jane);
      const intentId = await paidAtTheGateway(jane, booking.id);
      await calls.confirm(jane, booking.id, intentId);
      const response = await calls.confirm(jane, booking.id, 'pi_demo_another');
      expect(response.statusCode).toBe(409);
      expect((await bookingRow(t, booking.id)).transaction_id).toBe(intentId);
    });

    it('is 404 for an unknown or malformed booking id', async () => {
      expect((await calls.confirm(jane, randomUUID(), 'pi_demo_x')).statusCode).toBe(404);
      expect((await calls.confirm(jane, 'nope', 'pi_demo_x')).statusCode).toBe(404);
    });
  });

  it('recognises a broken unique index on this engine', async () => {
    const booking = await unpaidBooking(t, jane);
    const payment = {
      booking_id: booking.id,
      provider: 'demo' as const,
      amount_cents: 8000,
      currency: 'usd',
      created_at: new Date().toISOString(),
    };
    await t.db
      .insertInto('payment')
      .values({ ...payment, id: randomUUID(), transaction_id: 'pi_a' })
      .execute();
    const error = await t.db
      .insertInto('payment')
      .values({ ...payment, id: randomUUID(), transaction_id: 'pi_b' })
      .execute()
      .catch((caught: unknown) => caught);
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(new Error('connection refused'))).toBe(false);
  });

  it('keeps the default content security policy without Stripe', async () => {
    const response = await t.app.inject('/api/payment-config');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('stripe');
  });
});

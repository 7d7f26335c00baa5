import { formatMediumDate } from '@doctors-portal/contract';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { clinicDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  bookingRow,
  intentIdOf,
  type Patient,
  paidThroughStripe,
  paymentCalls,
  signedUpAdmin,
  signedUpPatient,
  stripeStandInEnv,
  unpaidBooking,
} from '../../test/payment-fixtures.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { type StripeStandIn, startStripeStandIn } from '../../test/stripe-stand-in.js';
import { insertBooking, newBookingRow } from '../bookings/repository.js';
import type { Booking } from '../db/schema.js';
import { visitLinkSignerOf, visitStart } from '../visits/mail-links.js';
import { PaymentProviderError } from './provider.js';

const WEBHOOK_SECRET = 'whsec_refund_races';
const TEN = '10:00 AM - 10:30 AM';
const ELEVEN = '11:00 AM - 11:30 AM';

/**
 * A paid booking's cancellation and refund racing the other things that happen to a booking: a
 * tap on a mail link, a move, a second cancellation, the provider failing or slow, Stripe's
 * webhook delivered twice or late. Whatever the order, a charge is refunded once, a booking is
 * cancelled only with its refund on record, and the patient is told of the visit that was
 * cancelled (decisions 014, 025 and 037).
 */
describe(`a refund and what races it (${engine})`, () => {
  let stripeApi: StripeStandIn;
  let smtp: TestSmtpServer;
  let t: TestApp;
  let jane: Patient;
  let admin: Patient;
  let day = 20;

  beforeAll(async () => {
    [stripeApi, smtp] = await Promise.all([
      startStripeStandIn({ secretKey: 'sk_test_refund_races' }),
      startTestSmtpServer(),
    ]);
    t = await buildTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_RATE: '1000',
        ...stripeStandInEnv(stripeApi, 'refund_races'),
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
    });
    [jane, admin] = await Promise.all([
      signedUpPatient(t.app, 'Jane Doe'),
      signedUpAdmin(t, 'Clinic Admin'),
    ]);
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([stripeApi?.close(), smtp?.close()]);
  });
  beforeEach(() => {
    stripeApi.failing = false;
  });

  const deliver = (payload: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: WEBHOOK_SECRET,
        }),
      },
      payload,
    });

  const clinicCancel = (id: string, reason = 'The dentist is ill') =>
    t.app.inject({
      method: 'POST',
      url: `/api/booking/${id}/cancel`,
      headers: bearer(admin.token),
      payload: { reason },
    });
  const patientCancel = (id: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/booking/${id}`, headers: bearer(jane.token) });

  const refundsOf = (bookingId: string) =>
    t.db.selectFrom('refund').selectAll().where('booking_id', '=', bookingId).execute();

  /** A live booking of Jane's with its time units, paid through the Stripe stand-in. */
  async function paidBooking(): Promise<{ booking: Booking; intentId: string }> {
    day += 2;
    return paidThroughStripe(t, stripeApi, jane, clinicDay(day));
  }

  it('the clinic cancels a paid booking while the patient taps Confirm in her mail: refunded, so cancelled', async () => {
    const { booking, intentId } = await paidBooking();
    const signer = visitLinkSignerOf(t.app.config);
    const confirmToken = signer.sign({
      bookingId: booking.id,
      action: 'confirm',
      sequence: booking.sequence,
      expiresAt: visitStart(t.app.config.clinic.timeZone, booking.date, booking.slot),
    });
    // The patient's tap lands while the clinic's refund is with Stripe.
    const provider = t.app.payments.provider;
    const realRefund = provider.refund.bind(provider);
    vi.spyOn(provider, 'refund').mockImplementationOnce(async (intent) => {
      const tapped = await t.app.inject({
        method: 'POST',
        url: `/api/visit/${confirmToken}/confirm`,
      });
      expect(tapped.statusCode, tapped.body).toBe(200);
      return realRefund(intent);
    });

    const response = await clinicCancel(booking.id);

    const row = await bookingRow(t, booking.id);
    const refunds = await refundsOf(booking.id);
    // Confirmed is as cancellable as booked: refunded, so cancelled, not refunded yet live.
    expect(stripeApi.refunds.has(intentId)).toBe(true);
    expect(refunds).toHaveLength(1);
    expect({ status: response.statusCode, booking: row.status }).toEqual({
      status: 200,
      booking: 'cancelled',
    });
  });

  it('a cancellation racing a move tells the patient of the visit it actually cancelled', async () => {
    day += 2;
    const date = clinicDay(day);
    const booking: Booking = newBookingRow({
      treatment_id: 'teeth-cleaning',
      treatment_name: 'Teeth Cleaning',
      price_cents: 8000,
      date,
      slot: TEN,
      patient_id: jane.id,
      patient_email: jane.email,
      patient_name: jane.name,
      phone: '+1 555 010 2030',
      age: 34,
    });
    await t.db.transaction().execute((tx) => insertBooking(tx, booking));
    const newDate = clinicDay(day + 1);
    // The clinic cancels; as it asks the provider about the open payment, the patient moves
    // the visit in another tab.
    const calls = paymentCalls(t.app);
    expect((await calls.createIntent(jane, { bookingId: booking.id })).statusCode).toBe(200);
    const provider = t.app.payments.provider;
    const realCancel = provider.cancel.bind(provider);
    vi.spyOn(provider, 'cancel').mockImplementationOnce(async (id) => {
      const moved = await t.app.inject({
        method: 'POST',
        url: `/api/booking/${booking.id}/reschedule`,
        headers: bearer(jane.token),
        payload: { date: formatMediumDate(newDate), slot: ELEVEN },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      return realCancel(id);
    });
    smtp.clear();

    const response = await clinicCancel(booking.id);
    expect(response.statusCode, response.body).toBe(200);
    const row = await bookingRow(t, booking.id);
    expect(row).toMatchObject({ status: 'cancelled', date: newDate, slot: ELEVEN, sequence: 1 });

    const aboutThis = (m: { subject?: string }) =>
      (m.subject?.startsWith('Appointment cancelled') ?? false) &&
      [date, newDate].some((d) => m.subject?.includes(formatMediumDate(d)));
    const mail = await smtp.waitForMail(aboutThis, 5_000);
    const text = mail.text ?? '';
    const ics = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'));
    // The visit as it was cancelled (moved), and a CANCEL that outranks the move's SEQUENCE:1.
    expect({
      oldDate: text.includes(formatMediumDate(date)),
      newDate: text.includes(formatMediumDate(newDate)),
      sequence: /SEQUENCE:(\d+)/.exec(ics?.content.toString() ?? '')?.[1],
    }).toEqual({ oldDate: false, newDate: true, sequence: '2' });
  });

  it("a Stripe retry that arrives while the first delivery is still working is handled too: the first one's failure loses no refund", async () => {
    // A booking cancelled before its charge arrived: the webhook must refund the charge.
    day += 2;
    const booking = await unpaidBooking(t, jane, { date: clinicDay(day) });
    const calls = paymentCalls(t.app);
    const intentId = intentIdOf(
      (await calls.createIntent(jane, { bookingId: booking.id })).json().clientSecret,
    );
    await t.db
      .updateTable('booking')
      .set({ status: 'cancelled', cancelled_at: new Date().toISOString() })
      .where('id', '=', booking.id)
      .execute();
    const intent = stripeApi.succeed(intentId);
    const event = stripeApi.event('payment_intent.succeeded', intent);

    // The first delivery's refund call is slow (stripe-node retries, 20 s timeouts) and fails.
    let fail: (() => void) | undefined;
    const provider = t.app.payments.provider;
    vi.spyOn(provider, 'refund').mockImplementationOnce(
      () =>
        new Promise((_resolve, reject) => {
          fail = () => reject(new PaymentProviderError('Stripe could not refund: timed out'));
        }),
    );
    const first = deliver(event);
    // The first delivery is now inside its refund call.
    await vi.waitFor(() => expect(fail).toBeDefined());
    // Stripe gave up waiting on the first delivery and sends the event again.
    const retry = await deliver(event);
    // Handled, not taken for a duplicate: an event is on record only once its work is done.
    expect(retry.statusCode).toBe(200);
    fail?.();
    expect((await first).statusCode).toBeGreaterThanOrEqual(500);

    // Stripe holds a 2xx for this event and sends it no more: the retry made the refund.
    expect(await refundsOf(booking.id)).toHaveLength(1);
    expect(stripeApi.refunds.has(intentId)).toBe(true);
  });

  it('the clinic and the patient cancel a paid booking at once: one refund, one cancellation, no 500', async () => {
    const { booking, intentId } = await paidBooking();
    smtp.clear();
    const [a, b] = await Promise.all([clinicCancel(booking.id), patientCancel(booking.id)]);
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes[0]).toBe(200);
    expect(codes[1]).toBe(409);
    expect(await bookingRow(t, booking.id)).toMatchObject({ status: 'cancelled' });
    expect(await refundsOf(booking.id)).toHaveLength(1);
    expect(stripeApi.refunds.get(intentId)?.amount).toBe(8000);
    const aboutThis = (m: { subject?: string }) =>
      (m.subject?.startsWith('Appointment cancelled') ?? false) &&
      (m.subject?.includes(formatMediumDate(booking.date)) ?? false);
    await smtp.waitForMail(aboutThis, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages.filter(aboutThis)).toHaveLength(1);
  });

  it('Stripe down during a paid cancellation: 502, still booked and paid, nothing refunded; later it goes through', async () => {
    const { booking, intentId } = await paidBooking();
    stripeApi.failing = true;
    const down = await clinicCancel(booking.id);
    expect(down.statusCode).toBe(502);
    expect(await bookingRow(t, booking.id)).toMatchObject({ status: 'booked' });
    expect(await refundsOf(booking.id)).toHaveLength(0);
    stripeApi.failing = false;
    const up = await clinicCancel(booking.id);
    expect(up.statusCode).toBe(200);
    expect(await refundsOf(booking.id)).toHaveLength(1);
    expect(stripeApi.refunds.has(intentId)).toBe(true);
  });

  it("a refund made but its answer lost (timeout): the retry gets Stripe's same refund", async () => {
    const { booking, intentId } = await paidBooking();
    const provider = t.app.payments.provider;
    const realRefund = provider.refund.bind(provider);
    vi.spyOn(provider, 'refund').mockImplementationOnce(async (intent) => {
      await realRefund(intent);
      throw new PaymentProviderError('Stripe could not refund: socket hang up');
    });
    expect((await patientCancel(booking.id)).statusCode).toBe(502);
    expect(await bookingRow(t, booking.id)).toMatchObject({ status: 'booked' });
    const again = await patientCancel(booking.id);
    expect(again.statusCode, again.body).toBe(200);
    const refunds = await refundsOf(booking.id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.id).toBe(stripeApi.refunds.get(intentId)?.id);
  });

  it('webhook replays and out-of-order events after a paid cancellation change nothing', async () => {
    const { booking, intentId } = await paidBooking();
    expect((await patientCancel(booking.id)).statusCode).toBe(200);
    const intent = stripeApi.intents.get(intentId);
    if (!intent) throw new Error('no intent');
    const event = stripeApi.event('payment_intent.succeeded', intent);
    const [x, y] = await Promise.all([deliver(event), deliver(event)]);
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    // A fresh event id for the same intent (Stripe may send it again as a new event).
    expect((await deliver(stripeApi.event('payment_intent.succeeded', intent))).statusCode).toBe(
      200,
    );
    expect(await refundsOf(booking.id)).toHaveLength(1);
    expect(await bookingRow(t, booking.id)).toMatchObject({
      status: 'cancelled',
      transaction_id: intentId,
    });
  });

  it('a charge confirmed by the browser and the webhook at once for a cancelled booking: one refund', async () => {
    day += 2;
    const booking = await unpaidBooking(t, jane, { date: clinicDay(day) });
    const calls = paymentCalls(t.app);
    const intentId = intentIdOf(
      (await calls.createIntent(jane, { bookingId: booking.id })).json().clientSecret,
    );
    await t.db
      .updateTable('booking')
      .set({ status: 'cancelled', cancelled_at: new Date().toISOString() })
      .where('id', '=', booking.id)
      .execute();
    const intent = stripeApi.succeed(intentId);
    const [hook, confirm] = await Promise.all([
      deliver(stripeApi.event('payment_intent.succeeded', intent)),
      calls.confirm(jane, booking.id, intentId),
    ]);
    expect(hook.statusCode).toBe(200);
    expect(confirm.statusCode).toBe(409);
    expect(await refundsOf(booking.id)).toHaveLength(1);
    expect((await bookingRow(t, booking.id)).paid_at).toBeNull();
  });

  it('cancel racing the payment confirmation of a booking paid at Stripe: paid, then refunded and cancelled', async () => {
    day += 2;
    const booking = await unpaidBooking(t, jane, { date: clinicDay(day) });
    const calls = paymentCalls(t.app);
    const intentId = intentIdOf(
      (await calls.createIntent(jane, { bookingId: booking.id })).json().clientSecret,
    );
    stripeApi.succeed(intentId);
    const [confirm, cancel] = await Promise.all([
      calls.confirm(jane, booking.id, intentId),
      patientCancel(booking.id),
    ]);
    expect([confirm.statusCode, cancel.statusCode]).not.toContain(500);
    const row = await bookingRow(t, booking.id);
    const refunds = await refundsOf(booking.id);
    // Either the cancel won (refunded) or it lost with a 409 and the booking stands paid.
    if (row.status === 'cancelled') {
      expect(refunds).toHaveLength(1);
      expect(stripeApi.refunds.has(intentId)).toBe(true);
    } else {
      expect(refunds).toHaveLength(0);
      expect(row.paid_at).not.toBeNull();
      expect(stripeApi.refunds.has(intentId)).toBe(false);
    }
  });
});

describe(`account removal with paid bookings (${engine})`, () => {
  let stripeApi: StripeStandIn;
  let t: TestApp;
  let admin: Patient;

  beforeAll(async () => {
    stripeApi = await startStripeStandIn({ secretKey: 'sk_test_removal_refunds' });
    t = await buildTestApp({ env: { ...stripeStandInEnv(stripeApi, 'removal_refunds') } });
    admin = await signedUpAdmin(t, 'Clinic Admin');
  });
  afterAll(async () => {
    await t?.close();
    await stripeApi?.close();
  });

  it('keeps the paid visit (still refundable by the clinic), cancels the unpaid one and stops its open payment', async () => {
    const ann = await signedUpPatient(t.app, 'Ann Removed');
    const { booking: paid, intentId: paidIntent } = await paidThroughStripe(
      t,
      stripeApi,
      ann,
      clinicDay(80),
    );
    const open = await unpaidBooking(t, ann, { date: clinicDay(81) });
    const openIntent = intentIdOf(
      (await paymentCalls(t.app).createIntent(ann, { bookingId: open.id })).json().clientSecret,
    );
    const removal = await t.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: bearer(ann.token),
      payload: { password: 'plaque-free-smile-42' },
    });
    expect(removal.statusCode, removal.body).toBeLessThan(300);
    expect(stripeApi.intents.get(openIntent)?.status).toBe('canceled');
    expect(await bookingRow(t, open.id)).toMatchObject({ status: 'cancelled', paid_at: null });
    expect(await bookingRow(t, paid.id)).toMatchObject({ status: 'booked', patient_id: null });

    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/booking/${paid.id}/cancel`,
      headers: bearer(admin.token),
      payload: { reason: 'Dentist ill' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(stripeApi.refunds.get(paidIntent)?.amount).toBe(8000);
    const refunds = await t.db
      .selectFrom('refund')
      .selectAll()
      .where('booking_id', '=', paid.id)
      .execute();
    expect(refunds).toHaveLength(1);
  });
});

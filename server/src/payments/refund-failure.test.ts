import type { Booking as ApiBooking } from '@doctors-portal/contract';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { clinicDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  bookingRow,
  type Patient,
  paidThroughStripe,
  signedUpAdmin,
  signedUpPatient,
  stripeStandInEnv,
} from '../../test/payment-fixtures.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { type StripeStandIn, startStripeStandIn } from '../../test/stripe-stand-in.js';
import { notYetRecorded } from './refund-failure.js';

/**
 * A card refund Stripe accepted can fail days later (`refund.failed`: the card was closed, the
 * bank sent the money back). The patient was told the money is back; the clinic must learn
 * that it is not, and the booking must stop showing a refund that gave nothing back.
 */
describe(`a refund that Stripe reports failed (${engine})`, () => {
  const name = 'refund_failure';
  const clinicEmail = 'front-desk@clinic.test';
  let stripeApi: StripeStandIn;
  let smtp: TestSmtpServer;
  let t: TestApp;
  let admin: Patient;
  let jane: Patient;

  beforeAll(async () => {
    [stripeApi, smtp] = await Promise.all([
      startStripeStandIn({ secretKey: `sk_test_${name}` }),
      startTestSmtpServer(),
    ]);
    t = await buildTestApp({
      env: {
        ...stripeStandInEnv(stripeApi, name),
        SMTP_URL: smtp.url,
        MAIL_RATE: '1000',
        CLINIC_EMAIL: clinicEmail,
      },
    });
    admin = await signedUpAdmin(t);
    jane = await signedUpPatient(t.app, 'Jane Doe');
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([stripeApi?.close(), smtp?.close()]);
  });

  /** What Stripe sends the webhook endpoint, signed with the endpoint's secret. */
  const deliver = (payload: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: `whsec_${name}`,
        }),
      },
      payload,
    });

  let day = 40;
  /** A booking of Jane's paid through Stripe and then cancelled by the clinic, refunded. */
  async function refundedBooking() {
    const { booking, intentId } = await paidThroughStripe(t, stripeApi, jane, clinicDay(++day));
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/booking/${booking.id}/cancel`,
      headers: bearer(admin.token),
      payload: { reason: 'The dentist is away' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().booking.refund).toEqual({ id: stripeApi.refunds.get(intentId)?.id });
    return { booking, intentId };
  }

  const janesBooking = async (id: string): Promise<ApiBooking | undefined> => {
    const response = await t.app.inject({
      url: `/api/booking?patientMail=${encodeURIComponent(jane.email)}`,
      headers: bearer(jane.token),
    });
    expect(response.statusCode).toBe(200);
    return (response.json() as ApiBooking[]).find((booking) => booking._id === id);
  };

  const failureEntries = (bookingId: string) =>
    t.db
      .selectFrom('audit_log')
      .select(['actor_kind', 'actor_name', 'after'])
      .where('action', '=', 'booking.refund_failed')
      .where('subject_id', '=', bookingId)
      .execute();

  it('marks the refund failed, audits it, mails the clinic, and the booking shows no refund', async () => {
    const { booking, intentId } = await refundedBooking();
    smtp.clear();
    const failed = stripeApi.failRefund(intentId, 'expired_or_canceled_card');

    const response = await deliver(stripeApi.event('refund.failed', failed));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ received: true, duplicate: false });

    const refund = await t.db
      .selectFrom('refund')
      .selectAll()
      .where('id', '=', failed.id)
      .executeTakeFirstOrThrow();
    expect(refund).toMatchObject({
      failed_at: expect.any(String),
      failure_reason: 'expired_or_canceled_card',
    });
    expect(await failureEntries(booking.id)).toEqual([
      {
        actor_kind: 'system',
        actor_name: 'stripe-webhook',
        after: expect.stringContaining('"failureReason":"expired_or_canceled_card"'),
      },
    ]);
    // Still cancelled and paid: the clinic holds the money until it returns it.
    expect(await bookingRow(t, booking.id)).toMatchObject({
      status: 'cancelled',
      paid_at: expect.any(String),
    });
    expect((await janesBooking(booking.id))?.refund).toBeNull();

    const mail = await smtp.waitForMail((message) => message.envelope.to.includes(clinicEmail));
    expect(mail.subject).toMatch(/^A refund failed: Jane Doe, /);
    expect(mail.replyTo?.text).toContain(jane.email);
    expect(mail.text).toContain('Amount: $80');
    expect(mail.text).toContain(failed.id);
    expect(mail.text).toContain('expired or canceled card');
  });

  it('does it once, however often Stripe reports the same failure', async () => {
    const { booking, intentId } = await refundedBooking();
    smtp.clear();
    const failed = stripeApi.failRefund(intentId, 'insufficient_funds');
    const first = stripeApi.event('refund.failed', failed);
    // Redelivered, and reported again in an event of its own.
    const answers = await Promise.all([
      deliver(first),
      deliver(first),
      deliver(stripeApi.event('refund.failed', failed)),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect(await failureEntries(booking.id)).toHaveLength(1);
    const mail = await smtp.waitForMail((message) => message.envelope.to.includes(clinicEmail));
    // The queue has sent what it had: one message to the clinic.
    await expect
      .poll(() => t.db.selectFrom('mail_queue').select('id').execute(), { timeout: 5000 })
      .toEqual([]);
    expect(
      smtp.messages
        .filter((message) => message.envelope.to.includes(clinicEmail))
        .map((message) => message.subject),
    ).toEqual([mail.subject]);
  });

  /**
   * A charge made at Stripe without the portal (a second tab's payment of a paid booking, or one
   * naming no booking), delivered to the webhook, which gives it back.
   */
  async function chargeMadeElsewhere(bookingId?: string) {
    const response = await fetch(`${stripeApi.url}/v1/payment_intents`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stripeApi.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `amount=8000&currency=usd${bookingId ? `&metadata[bookingId]=${bookingId}` : ''}`,
    });
    const intent = stripeApi.succeed(((await response.json()) as { id: string }).id);
    expect((await deliver(stripeApi.event('payment_intent.succeeded', intent))).statusCode).toBe(
      200,
    );
    return intent;
  }

  it("shows a paid booking's own refund only: not a second charge's, given back, nor one that failed", async () => {
    const { booking, intentId } = await paidThroughStripe(t, stripeApi, jane, clinicDay(++day));
    const second = await chargeMadeElsewhere(booking.id);
    expect(stripeApi.refunds.get(second.id)?.status).toBe('succeeded');
    // Still paid, by its own payment: the second charge's refund is not the booking's.
    expect((await janesBooking(booking.id))?.refund).toBeNull();
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/booking/${booking.id}/cancel`,
      headers: bearer(admin.token),
      payload: { reason: 'The dentist is away' },
    });
    const own = stripeApi.refunds.get(intentId);
    expect(cancelled.json().booking.refund).toEqual({ id: own?.id });
    await deliver(stripeApi.event('refund.failed', stripeApi.failRefund(intentId)));
    expect((await janesBooking(booking.id))?.refund).toBeNull();
    const history = await t.app.inject({
      url: '/api/booking/history',
      headers: bearer(jane.token),
    });
    expect(
      (history.json() as { _id: string; refunded: boolean }[]).find(
        (entry) => entry._id === booking.id,
      ),
    ).toMatchObject({ paid: true, refunded: false });
  });

  it('tells the clinic of a failed refund of a charge that named no booking', async () => {
    // A charge for nothing is given back at once…
    const stray = await chargeMadeElsewhere();
    smtp.clear();
    // …and that refund fails.
    const failed = await deliver(stripeApi.event('refund.failed', stripeApi.failRefund(stray.id)));
    expect(failed.statusCode, failed.body).toBe(200);
    const mail = await smtp.waitForMail(
      (message) =>
        message.envelope.to.includes(clinicEmail) &&
        message.subject === `A refund failed: ${stray.id}`,
    );
    expect(mail.text).toContain('its booking does not exist');
    expect(
      await t.db
        .selectFrom('audit_log')
        .select('subject_type')
        .where('action', '=', 'booking.refund_failed')
        .where('subject_id', '=', stray.id)
        .execute(),
    ).toEqual([{ subject_type: 'payment' }]);
  });

  it('has Stripe send again a failure reported before its refund is on record', async () => {
    const { booking, intentId } = await paidThroughStripe(t, stripeApi, jane, clinicDay(++day));
    const refund = {
      id: 're_3notRecordedYet',
      object: 'refund' as const,
      amount: 8000,
      currency: 'usd',
      payment_intent: intentId,
      status: 'failed' as const,
      failure_reason: 'lost_or_stolen_card',
      created: 0,
    };
    const event = stripeApi.event('refund.failed', refund);
    const early = await deliver(event);
    expect(early.statusCode).toBe(503);
    expect(early.json().message).toBe(notYetRecorded);
    // The portal writes the refund's row once Stripe has answered it, a moment later.
    await t.db
      .insertInto('refund')
      .values({
        id: refund.id,
        booking_id: booking.id,
        provider: 'stripe',
        intent_id: intentId,
        amount_cents: 8000,
        currency: 'usd',
        reason: 'Refunded because the clinic cancelled the visit',
        created_at: new Date().toISOString(),
      })
      .execute();
    const again = await deliver(event);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ received: true, duplicate: false });
    expect(await failureEntries(booking.id)).toHaveLength(1);
  });

  it("acknowledges a failure of a refund it did not make (Stripe's dashboard) and changes nothing", async () => {
    const response = await deliver(
      stripeApi.event('refund.failed', {
        id: 're_3madeInTheDashboard',
        object: 'refund',
        amount: 8000,
        currency: 'usd',
        payment_intent: 'pi_3unknown',
        status: 'failed',
        failure_reason: 'declined',
        created: 0,
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(
      await t.db
        .selectFrom('audit_log')
        .select('id')
        .where('action', '=', 'booking.refund_failed')
        .where('subject_id', '=', 'pi_3unknown')
        .execute(),
    ).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { type Booking as ApiBooking, scheduleSchema } from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, seedPatients } from '../../test/accounts.js';
import { clinicDay, clinicTime, mediumDay } from '../../test/dates.js';
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
import { payThroughDemo } from '../../test/security-fixtures.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { type StripeStandIn, startStripeStandIn } from '../../test/stripe-stand-in.js';
import { clinicErrors } from './clinic-actions.js';
import { clock } from './clock.js';

/**
 * The clinic's own actions on a booking from the schedule: the visit's status (arrived,
 * completed, no-show) and the clinic's cancellation with a reason, which frees the slot, refunds
 * a paid booking through the payment provider, mails the patient a calendar cancellation, and
 * is written to the audit log with the change.
 */

const setStatus = (app: FastifyInstance, who: Patient | null, id: string, status: string) =>
  app.inject({
    method: 'PATCH',
    url: `/api/booking/${id}/status`,
    headers: who ? bearer(who.token) : {},
    payload: { status },
  });

const cancelByClinic = (app: FastifyInstance, who: Patient | null, id: string, reason: unknown) =>
  app.inject({
    method: 'POST',
    url: `/api/booking/${id}/cancel`,
    headers: who ? bearer(who.token) : {},
    payload: { reason },
  });

const myBookings = async (app: FastifyInstance, patient: Patient): Promise<ApiBooking[]> => {
  const response = await app.inject({
    method: 'GET',
    url: `/api/booking?patientMail=${encodeURIComponent(patient.email)}`,
    headers: bearer(patient.token),
  });
  expect(response.statusCode).toBe(200);
  return response.json();
};

/** The clinic's own entries of a booking in the audit log (those of the back office). */
async function clinicAuditOf(t: TestApp, bookingId: string) {
  return (await auditOf(t, bookingId))
    .filter((entry) => entry.actor_kind === 'admin')
    .map((entry) => entry.action)
    .sort();
}

async function auditOf(t: TestApp, bookingId: string) {
  return t.db
    .selectFrom('audit_log')
    .select(['action', 'actor_kind', 'actor_id', 'before', 'after', 'subject_label'])
    .where('subject_id', '=', bookingId)
    .orderBy('at')
    .execute();
}

let pastDay = 0;
/** A booking on a day before the test clock's today, each on a day of its own. */
const pastBooking = (t: TestApp, patient: Patient) => {
  pastDay -= 1;
  return unpaidBooking(t, patient, { date: clinicDay(pastDay) });
};

describe(`the clinic's actions on a booking (${engine})`, () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let admin: Patient;
  let jane: Patient;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await buildTestApp({ env: { SMTP_URL: smtp.url, MAIL_RATE: '1000' } });
    admin = await signedUpAdmin(t);
    jane = await signedUpPatient(t.app, 'Jane Doe');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  describe('the visit status', () => {
    it('goes booked → arrived → completed, each change in the audit log', async () => {
      const booking = await pastBooking(t, jane);
      const arrived = await setStatus(t.app, admin, booking.id, 'arrived');
      expect(arrived.statusCode, arrived.body).toBe(200);
      expect(arrived.json()).toMatchObject({ changed: true, booking: { status: 'arrived' } });
      const completed = await setStatus(t.app, admin, booking.id, 'completed');
      expect(completed.json()).toMatchObject({ changed: true, booking: { status: 'completed' } });
      expect((await bookingRow(t, booking.id)).status).toBe('completed');
      const audit = await auditOf(t, booking.id);
      expect(audit.map((entry) => [entry.action, entry.actor_kind, entry.actor_id])).toEqual([
        ['booking.status', 'admin', admin.id],
        ['booking.status', 'admin', admin.id],
      ]);
      expect(
        audit.map((entry) => [JSON.parse(entry.before ?? ''), JSON.parse(entry.after ?? '')]),
      ).toEqual([
        [{ status: 'booked' }, { status: 'arrived' }],
        [{ status: 'arrived' }, { status: 'completed' }],
      ]);
      // Named as every booking entry is: its treatment, day and slot as booked.
      expect(new Set(audit.map((entry) => entry.subject_label))).toEqual(
        new Set([`${booking.treatment_name}, ${booking.date}, ${booking.slot}`]),
      );
    });

    it("marks a no-show, which the patient's bookings on the schedule then count", async () => {
      const missed = await pastBooking(t, jane);
      expect((await setStatus(t.app, admin, missed.id, 'no_show')).statusCode).toBe(200);
      const upcoming = await unpaidBooking(t, jane, { date: clinicDay(5) });
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/schedule?from=${clinicDay(5)}&to=${clinicDay(5)}`,
        headers: bearer(admin.token),
      });
      const entry = scheduleSchema
        .parse(response.json())
        .bookings.find((booking) => booking._id === upcoming.id);
      expect(entry?.noShows).toBeGreaterThanOrEqual(1);
      // A no-show who turns up late after all.
      expect((await setStatus(t.app, admin, missed.id, 'arrived')).json()).toMatchObject({
        booking: { status: 'arrived' },
      });
    });

    it('refuses what makes no sense with 409 and the reason', async () => {
      const booking = await pastBooking(t, jane);
      const cases: Array<[string, string]> = [
        ['completed', clinicErrors.transition('booked', 'completed')],
        ['cancelled', clinicErrors.toCancelled],
        ['booked', ''],
        ['confirmed', clinicErrors.notVisitStatus('confirmed')],
      ];
      for (const [status, message] of cases) {
        const response = await setStatus(t.app, admin, booking.id, status);
        if (status === 'booked') {
          // Already booked: nothing changes.
          expect(response.json()).toMatchObject({ changed: false });
          continue;
        }
        expect(response.statusCode, status).toBe(409);
        expect(response.json().message).toBe(message);
      }
      await setStatus(t.app, admin, booking.id, 'arrived');
      const back = await setStatus(t.app, admin, booking.id, 'no_show');
      expect(back.statusCode).toBe(409);
      expect(back.json().message).toBe(clinicErrors.transition('arrived', 'no_show'));

      const later = await unpaidBooking(t, jane, { date: clinicDay(6) });
      const early = await setStatus(t.app, admin, later.id, 'arrived');
      expect(early.statusCode).toBe(409);
      expect(early.json().message).toBe(clinicErrors.laterDay);

      const gone = await pastBooking(t, jane);
      await t.db
        .updateTable('booking')
        .set({ status: 'cancelled' })
        .where('id', '=', gone.id)
        .execute();
      const fromCancelled = await setStatus(t.app, admin, gone.id, 'arrived');
      expect(fromCancelled.statusCode).toBe(409);
      expect(fromCancelled.json().message).toBe(clinicErrors.fromCancelled);
      expect(await auditOf(t, gone.id)).toEqual([]);
    });

    it('answers a patient 403 and nobody 401, even for their own booking, and changes nothing', async () => {
      const booking = await pastBooking(t, jane);
      const patient = await setStatus(t.app, jane, booking.id, 'arrived');
      expect(patient.statusCode).toBe(403);
      expect((await setStatus(t.app, null, booking.id, 'arrived')).statusCode).toBe(401);
      expect((await cancelByClinic(t.app, jane, booking.id, 'I want to')).statusCode).toBe(403);
      expect((await bookingRow(t, booking.id)).status).toBe('booked');
    });

    it('answers 404 for an unknown booking and 400 for a status that is none', async () => {
      expect((await setStatus(t.app, admin, 'not-a-uuid', 'arrived')).statusCode).toBe(404);
      expect((await setStatus(t.app, admin, randomUUID(), 'arrived')).statusCode).toBe(404);
      const booking = await pastBooking(t, jane);
      const bad = await setStatus(t.app, admin, booking.id, 'teleported');
      expect(bad.statusCode).toBe(400);
    });
  });

  describe("the clinic's cancellation", () => {
    it('frees the slot, keeps who and why, and mails the patient a calendar cancellation of the same event', async () => {
      const omar = await signedUpPatient(t.app, 'Omar Haddad');
      const booked = await t.app.inject({
        method: 'POST',
        url: '/api/booking',
        headers: bearer(omar.token),
        payload: {
          treatmentId: 'fluoride-treatment',
          date: mediumDay(20),
          slot: '10:30 AM - 11:00 AM',
          phone: '+1 555 010 4444',
          age: 52,
        },
      });
      expect(booked.statusCode).toBe(201);
      const id = booked.json().booking._id as string;
      const confirmation = await smtp.waitForMail(
        (mail) =>
          mail.envelope.to.includes(omar.email) &&
          /^Appointment confirmed/.test(mail.subject ?? ''),
      );

      const response = await cancelByClinic(t.app, admin, id, '  The hygienist is ill today.  ');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().booking).toMatchObject({ status: 'cancelled', refund: null });
      expect(await bookingRow(t, id)).toMatchObject({
        status: 'cancelled',
        cancelled_by: admin.id,
        cancel_reason: 'The hygienist is ill today.',
        cancelled_at: expect.any(String),
      });
      const units = await t.db
        .selectFrom('booking_unit')
        .select('unit')
        .where('booking_id', '=', id)
        .execute();
      expect(units).toEqual([]);
      // The slot is offered again.
      const available = await t.app.inject(
        `/api/available?date=${encodeURIComponent(mediumDay(20))}`,
      );
      const fluoride = (available.json() as Array<{ _id: string; slots: string[] }>).find(
        (treatment) => treatment._id === 'fluoride-treatment',
      );
      expect(fluoride?.slots).toContain('10:30 AM - 11:00 AM');

      const mail = await smtp.waitForMail(
        (received) =>
          received.envelope.to.includes(omar.email) &&
          /^Appointment cancelled/.test(received.subject ?? ''),
      );
      expect(mail.subject).toBe(
        `Appointment cancelled: Fluoride Treatment on ${mediumDay(20)} at 10:30 AM - 11:00 AM`,
      );
      expect(mail.text).toContain('The hygienist is ill today.');
      const calendarOf = (received: typeof mail) =>
        received.attachments
          .find((part) => part.filename?.endsWith('.ics'))
          ?.content.toString('utf8') ?? '';
      const cancel = calendarOf(mail);
      const uid = /\r\nUID:([^\r]+)\r\n/.exec(calendarOf(confirmation))?.[1];
      expect(uid).toBe(`booking-${id}@${t.config.clinic.email.split('@')[1]}`);
      expect(cancel).toContain('\r\nMETHOD:CANCEL\r\n');
      expect(cancel).toContain(`\r\nUID:${uid}\r\n`);
      expect(cancel).toContain('\r\nSTATUS:CANCELLED\r\n');
      expect(cancel).toContain('\r\nSEQUENCE:1\r\n');

      expect(await clinicAuditOf(t, id)).toEqual(['booking.cancelled']);
      // The patient sees it cancelled by the clinic, with the reason.
      const listed = (await myBookings(t.app, omar)).find((booking) => booking._id === id);
      expect(listed).toMatchObject({
        status: 'cancelled',
        cancellable: false,
        cancelReason: 'The hygienist is ill today.',
        refund: null,
      });
    });

    it('lets the patient book the same treatment and date again', async () => {
      const omar = await signedUpPatient(t.app, 'Omar Again');
      const request = {
        treatmentId: 'teeth-cleaning',
        date: mediumDay(21),
        slot: '11:00 AM - 11:30 AM',
        phone: '+1 555 010 4444',
        age: 52,
      };
      const book = (slot: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/booking',
          headers: bearer(omar.token),
          payload: { ...request, slot },
        });
      const first = await book(request.slot);
      expect(first.statusCode).toBe(201);
      expect((await book('12:00 PM - 12:30 PM')).statusCode).toBe(409);
      expect(
        (await cancelByClinic(t.app, admin, first.json().booking._id, 'Double-booked chair'))
          .statusCode,
      ).toBe(200);
      const again = await book(request.slot);
      expect(again.statusCode, again.body).toBe(201);
    });

    it('200 patients booking the slot it freed at once: exactly one gets it', async () => {
      const holder = await signedUpPatient(t.app, 'First Holder');
      const booking = await unpaidBooking(t, holder, {
        date: clinicDay(22),
        slot: '5:00 PM - 5:30 PM',
      });
      expect(
        (await cancelByClinic(t.app, admin, booking.id, 'Clinic closed early')).statusCode,
      ).toBe(200);

      const people = await seedPatients(t.db, engine, 200);
      const crowd = await Promise.all(
        people.map(async (person) => ({
          ...person,
          token: (await t.app.accessTokens.issue(person)).token,
        })),
      );
      const responses = await Promise.all(
        crowd.map((person) =>
          t.app.inject({
            method: 'POST',
            url: '/api/booking',
            headers: bearer(person.token),
            payload: {
              treatmentId: 'teeth-cleaning',
              date: mediumDay(22),
              slot: '5:00 PM - 5:30 PM',
              phone: '+1 555 010 2030',
              age: 30,
            },
          }),
        ),
      );
      const codes = responses.map((response) => response.statusCode);
      expect(codes.filter((code) => code === 201)).toHaveLength(1);
      expect(codes.filter((code) => code === 409)).toHaveLength(199);
      const live = await t.db
        .selectFrom('booking')
        .select(['id', 'status'])
        .where('date', '=', clinicDay(22))
        .where('slot', '=', '5:00 PM - 5:30 PM')
        .execute();
      expect(live.map((row) => row.status).sort()).toEqual(['booked', 'cancelled']);
    }, 60_000);

    it('refunds a paid booking through the demo gateway, and the patient sees it REFUNDED', async () => {
      const paidBooking = await unpaidBooking(t, jane, { date: clinicDay(23) });
      const transactionId = await payThroughDemo(t, { ...jane, cookie: '' }, paidBooking);

      const response = await cancelByClinic(t.app, admin, paidBooking.id, 'The dentist is away');
      expect(response.statusCode, response.body).toBe(200);
      const refund = await t.db
        .selectFrom('refund')
        .selectAll()
        .where('booking_id', '=', paidBooking.id)
        .executeTakeFirstOrThrow();
      expect(refund).toMatchObject({
        id: expect.stringMatching(/^re_demo_/),
        provider: 'demo',
        intent_id: transactionId,
        amount_cents: 8000,
        currency: 'usd',
      });
      expect(response.json().booking).toMatchObject({
        status: 'cancelled',
        paid: true,
        refund: { id: refund.id },
      });
      const listed = (await myBookings(t.app, jane)).find(
        (booking) => booking._id === paidBooking.id,
      );
      expect(listed).toMatchObject({ status: 'cancelled', paid: true, refund: { id: refund.id } });
      // The payment's confirmation sent again answers the booking as it is: refunded.
      const confirmedAgain = await t.app.inject({
        method: 'PATCH',
        url: `/api/booking/${paidBooking.id}`,
        headers: bearer(jane.token),
        payload: { appointmentId: paidBooking.id, transactionId },
      });
      expect(confirmedAgain.statusCode, confirmedAgain.body).toBe(200);
      expect(confirmedAgain.json()).toMatchObject({
        modifiedCount: 0,
        booking: { status: 'cancelled', paid: true, refund: { id: refund.id } },
      });
      // Cancelled and refunded in one transaction, at one moment.
      expect(await clinicAuditOf(t, paidBooking.id)).toEqual([
        'booking.cancelled',
        'booking.refunded',
      ]);
      const mail = await smtp.waitForMail(
        (received) =>
          received.envelope.to.includes(jane.email) && (received.text ?? '').includes(refund.id),
      );
      expect(mail.text).toContain('Refunded: $80');
      // Cancelling again changes nothing and refunds nothing more.
      const again = await cancelByClinic(t.app, admin, paidBooking.id, 'Again');
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(clinicErrors.alreadyCancelled);
      const demoRefunds = await t.db
        .selectFrom('demo_refund')
        .select('id')
        .where('intent_id', '=', transactionId)
        .execute();
      expect(demoRefunds).toHaveLength(1);
    });

    it('a booking that changed while its refund was made stays as it is; the refund is on record and in the audit log', async () => {
      const paidBooking = await unpaidBooking(t, jane, { date: clinicDay(26) });
      const transactionId = await payThroughDemo(t, { ...jane, cookie: '' }, paidBooking);
      const provider = t.app.payments.provider;
      const refund = provider.refund.bind(provider);
      // Another member of staff marks the patient arrived while the provider makes the refund.
      const spy = vi.spyOn(provider, 'refund').mockImplementationOnce(async (intent) => {
        const made = await refund(intent);
        await t.db
          .updateTable('booking')
          .set({ status: 'arrived' })
          .where('id', '=', paidBooking.id)
          .execute();
        return made;
      });
      try {
        const response = await cancelByClinic(t.app, admin, paidBooking.id, 'The dentist is away');
        expect(response.statusCode).toBe(409);
        const recorded = await t.db
          .selectFrom('refund')
          .selectAll()
          .where('booking_id', '=', paidBooking.id)
          .executeTakeFirstOrThrow();
        expect(recorded).toMatchObject({ provider: 'demo', intent_id: transactionId });
        expect(response.json().message).toBe(clinicErrors.changedAfterRefund(recorded.id));
        expect(await bookingRow(t, paidBooking.id)).toMatchObject({
          status: 'arrived',
          paid_at: expect.any(String),
          cancelled_at: null,
        });
        const audit = (await auditOf(t, paidBooking.id)).filter(
          (entry) => entry.actor_kind === 'admin',
        );
        expect(audit).toHaveLength(1);
        expect(audit[0]).toMatchObject({ action: 'booking.refunded', actor_id: admin.id });
        expect(JSON.parse(String(audit[0]?.after))).toMatchObject({
          refundId: recorded.id,
          transactionId,
          amountCents: 8000,
        });
      } finally {
        spy.mockRestore();
      }
    });

    it("cancels an unpaid booking's open payment first, as the patient's cancellation does", async () => {
      const booking = await unpaidBooking(t, jane, { date: clinicDay(24) });
      const intent = await paymentCalls(t.app).createIntent(jane, { bookingId: booking.id });
      const intentId = intentIdOf(intent.json().clientSecret);
      expect((await cancelByClinic(t.app, admin, booking.id, 'Equipment failure')).statusCode).toBe(
        200,
      );
      const demo = await t.db
        .selectFrom('demo_payment_intent')
        .select('canceled_at')
        .where('id', '=', intentId)
        .executeTakeFirstOrThrow();
      expect(demo.canceled_at).not.toBeNull();
      expect(
        await t.db.selectFrom('refund').selectAll().where('booking_id', '=', booking.id).execute(),
      ).toEqual([]);
    });

    it('refuses a visit that started, one already seen, and a reason that is missing or too long', async () => {
      const today = await unpaidBooking(t, jane, {
        date: clinicDay(0),
        slot: '10:00 AM - 10:30 AM',
      });
      // The test clock stands at noon: the 10:00 visit has started.
      const started = await cancelByClinic(t.app, admin, today.id, 'Too late');
      expect(started.statusCode).toBe(409);
      expect(started.json().message).toBe(clinicErrors.started);
      const seen = await pastBooking(t, jane);
      await t.db
        .updateTable('booking')
        .set({ status: 'completed' })
        .where('id', '=', seen.id)
        .execute();
      const done = await cancelByClinic(t.app, admin, seen.id, 'Oops');
      expect(done.statusCode).toBe(409);
      expect(done.json().message).toBe(clinicErrors.notCancellable('completed'));

      const booking = await unpaidBooking(t, jane, { date: clinicDay(25) });
      for (const reason of ['', '   ', 'x'.repeat(501), null, 42]) {
        const response = await cancelByClinic(t.app, admin, booking.id, reason);
        expect(response.statusCode, JSON.stringify(reason)).toBe(400);
      }
      expect((await cancelByClinic(t.app, admin, booking.id, 'x'.repeat(500))).statusCode).toBe(
        200,
      );
      expect((await cancelByClinic(t.app, admin, 'nope', 'Why')).statusCode).toBe(404);
    });

    it('may cancel a later visit of today that has not started', async () => {
      vi.spyOn(clock, 'now').mockReturnValue(clinicTime(clinicDay(0), '09:00'));
      const today = await unpaidBooking(t, jane, {
        date: clinicDay(0),
        treatment_id: 'cavity-filling',
        slot: '11:00 AM - 12:00 PM',
      });
      expect((await cancelByClinic(t.app, admin, today.id, 'Power cut')).statusCode).toBe(200);
    });
  });
});

describe(`the clinic's cancellation of a booking paid through Stripe (${engine})`, () => {
  let stripeApi: StripeStandIn;
  let t: TestApp;
  let admin: Patient;
  let jane: Patient;

  beforeAll(async () => {
    stripeApi = await startStripeStandIn({ secretKey: 'sk_test_clinic_cancel' });
    t = await buildTestApp({
      env: stripeStandInEnv(stripeApi, 'clinic_cancel'),
    });
    admin = await signedUpAdmin(t);
    jane = await signedUpPatient(t.app, 'Jane Doe');
  });
  afterAll(async () => {
    await t?.close();
    await stripeApi?.close();
  });

  let day = 30;
  /** A booking of Jane's that Stripe charged and the portal marked paid, on a day of its own. */
  const paidByJane = () => paidThroughStripe(t, stripeApi, jane, clinicDay(++day));

  it("refunds the charge with Stripe's refunds API and records Stripe's refund id", async () => {
    const { booking, intentId } = await paidByJane();
    const response = await cancelByClinic(t.app, admin, booking.id, 'The dentist is away');
    expect(response.statusCode, response.body).toBe(200);
    const made = stripeApi.refunds.get(intentId);
    expect(made?.amount).toBe(8000);
    const refundCall = stripeApi.requests.find((request) => request.path === '/v1/refunds');
    expect(refundCall?.headers['idempotency-key']).toBe(`refund-${intentId}`);
    const refund = await t.db
      .selectFrom('refund')
      .selectAll()
      .where('booking_id', '=', booking.id)
      .executeTakeFirstOrThrow();
    expect(refund).toMatchObject({ id: made?.id, provider: 'stripe', intent_id: intentId });
    expect(response.json().booking.refund).toEqual({ id: made?.id });
  });

  it('a refund Stripe refuses leaves the booking booked and paid, and the answer says why', async () => {
    const { booking, intentId } = await paidByJane();
    // The cardholder disputed the charge with their bank: Stripe refunds no disputed charge.
    stripeApi.disputed.add(intentId);
    const response = await cancelByClinic(t.app, admin, booking.id, 'The dentist is away');
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(
      clinicErrors.refundRefused(
        `Charge for ${intentId} has been charged back; cannot issue a refund.`,
      ),
    );
    expect(await bookingRow(t, booking.id)).toMatchObject({
      status: 'booked',
      paid_at: expect.any(String),
      cancelled_at: null,
    });
    expect(
      await t.db.selectFrom('refund').selectAll().where('booking_id', '=', booking.id).execute(),
    ).toEqual([]);
  });

  it("a charge refunded already in Stripe's dashboard: cancelled, with that refund on record", async () => {
    const { booking, intentId } = await paidByJane();
    stripeApi.refunds.set(intentId, {
      id: 're_3dashboard',
      object: 'refund',
      amount: 8000,
      currency: 'usd',
      payment_intent: intentId,
      status: 'succeeded',
      created: 0,
    });
    const response = await cancelByClinic(t.app, admin, booking.id, 'The dentist is away');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().booking.refund).toEqual({ id: 're_3dashboard' });
    expect(await bookingRow(t, booking.id)).toMatchObject({ status: 'cancelled' });
    expect(
      await t.db.selectFrom('refund').selectAll().where('booking_id', '=', booking.id).execute(),
    ).toMatchObject([{ id: 're_3dashboard', provider: 'stripe', intent_id: intentId }]);
  });

  it('Stripe out of reach: 502, and the booking stays booked and paid', async () => {
    const { booking } = await paidByJane();
    stripeApi.failing = true;
    try {
      const response = await cancelByClinic(t.app, admin, booking.id, 'The dentist is away');
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toMatch(/payment provider/);
    } finally {
      stripeApi.failing = false;
    }
    expect((await bookingRow(t, booking.id)).status).toBe('booked');
    // Once Stripe answers again, the cancellation goes through.
    expect((await cancelByClinic(t.app, admin, booking.id, 'The dentist is away')).statusCode).toBe(
      200,
    );
  });
});

import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { type Person, signedUp, signedUpAdmin } from '../../test/admin-fixtures.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { unpaidBooking } from '../../test/payment-fixtures.js';
import { addDoctor, GOOD_CARD, payThroughDemo } from '../../test/security-fixtures.js';
import { RefundRefused } from '../payments/provider.js';
import type { Payments } from '../payments/service.js';
import { refundOrphanedCharge } from '../payments/service.js';

const book = (app: FastifyInstance, patient: Person, fields: Record<string, unknown> = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/booking',
    headers: bearer(patient.token),
    payload: {
      treatmentId: 'teeth-cleaning',
      treatment: 'Teeth Cleaning',
      date: mediumDay(40),
      slot: '10:00 AM - 10:30 AM',
      price: 80,
      patientMail: patient.email,
      patientName: patient.name,
      phone: '+1 555 010 2030',
      age: 34,
      ...fields,
    },
  });

/**
 * Every change a person makes is written to the audit log in the change's own transaction: the
 * change and its record are committed together, or neither is. Each action below leaves exactly
 * one entry naming who did it; a change that is refused leaves none.
 */
describe(`the audit trail of the portal's changes (${engine})`, () => {
  let t: TestApp;
  let admin: Person;
  let jane: Person;

  const entries = (where: { subjectId?: string; actorId?: string; action?: string }) => {
    let query = t.db.selectFrom('audit_log').selectAll().orderBy('at').orderBy('id');
    if (where.subjectId) query = query.where('subject_id', '=', where.subjectId);
    if (where.actorId) query = query.where('actor_id', '=', where.actorId);
    if (where.action) query = query.where('action', '=', where.action);
    return query.execute();
  };

  beforeAll(async () => {
    // A patient's cancellation here is within a day of the visit: no cancellation notice.
    t = await buildTestApp({ env: { CANCELLATION_NOTICE_HOURS: '0' } });
    admin = await signedUpAdmin(t.app, 'Audrey Admin');
    jane = await signedUp(t.app, 'Jane Doe');
  });
  afterAll(() => t.close());

  describe('bookings', () => {
    it('a booking made: booking.created by its patient, with what was booked', async () => {
      const response = await book(t.app, jane);
      expect(response.statusCode).toBe(201);
      const { _id: id } = (response.json() as { booking: { _id: string } }).booking;

      expect(await entries({ subjectId: id })).toEqual([
        expect.objectContaining({
          actor_kind: 'patient',
          actor_id: jane.id,
          actor_name: 'Jane Doe',
          actor_email: jane.email,
          action: 'booking.created',
          subject_type: 'booking',
          subject_label: `Teeth Cleaning, ${clinicDay(40)}, 10:00 AM - 10:30 AM`,
          before: null,
        }),
      ]);
      const [entry] = await entries({ subjectId: id });
      expect(JSON.parse(entry?.after ?? 'null')).toEqual({
        status: 'booked',
        treatment: 'Teeth Cleaning',
        date: clinicDay(40),
        slot: '10:00 AM - 10:30 AM',
        priceCents: 8000,
      });
    });

    it('a booking the unique index refuses leaves no entry', async () => {
      const rival = await signedUp(t.app, 'Rival Patient');
      const taken = await book(t.app, rival, { date: mediumDay(40) });
      expect(taken.statusCode).toBe(409);
      // The patient's own second booking of the same treatment and day: refused as well.
      const again = await book(t.app, jane, { date: mediumDay(40), slot: '11:00 AM - 11:30 AM' });
      expect(again.statusCode).toBe(409);

      expect(await entries({ actorId: rival.id })).toEqual([]);
      expect(await entries({ actorId: jane.id, action: 'booking.created' })).toHaveLength(1);
    });

    it('concurrent bookings of one slot: one entry, for the one that got it', async () => {
      const crowd = await Promise.all(
        Array.from({ length: 8 }, (_, n) => signedUp(t.app, `Crowd ${n}`)),
      );
      const answers = await Promise.all(
        crowd.map((person) => book(t.app, person, { date: mediumDay(41) })),
      );
      expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1);

      const created = await t.db
        .selectFrom('audit_log')
        .select('actor_id')
        .where('action', '=', 'booking.created')
        .where(
          'actor_id',
          'in',
          crowd.map((person) => person.id),
        )
        .execute();
      expect(created).toHaveLength(1);
    });

    it('a booking its patient cancels: booking.cancelled by the patient, status before and after', async () => {
      const booking = await unpaidBooking(t, jane);
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/booking/${booking.id}`,
        headers: bearer(jane.token),
      });
      expect(response.statusCode).toBe(200);

      const [entry, ...more] = await entries({ subjectId: booking.id });
      expect(more).toEqual([]);
      expect(entry).toMatchObject({
        actor_kind: 'patient',
        actor_id: jane.id,
        action: 'booking.cancelled',
      });
      expect(JSON.parse(entry?.before ?? 'null')).toEqual({ status: 'booked' });
      expect(JSON.parse(entry?.after ?? 'null')).toEqual({
        status: 'cancelled',
        reason: 'Cancelled by the patient',
      });
    });

    it('a cancellation refused (someone else’s booking) leaves no entry', async () => {
      const other = await signedUp(t.app, 'Other Patient');
      const booking = await unpaidBooking(t, other);
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/booking/${booking.id}`,
        headers: bearer(jane.token),
      });
      expect(response.statusCode).toBe(403);
      expect(await entries({ subjectId: booking.id })).toEqual([]);
    });

    it('a booking paid: booking.paid by its patient, with no card detail in it', async () => {
      const booking = await unpaidBooking(t, jane);
      const transactionId = await payThroughDemo(t, jane, booking);

      const [entry, ...more] = await entries({ subjectId: booking.id });
      expect(more).toEqual([]);
      expect(entry).toMatchObject({
        actor_kind: 'patient',
        actor_id: jane.id,
        action: 'booking.paid',
      });
      expect(JSON.parse(entry?.before ?? 'null')).toEqual({ paid: false });
      expect(JSON.parse(entry?.after ?? 'null')).toEqual({
        paid: true,
        transactionId,
        provider: 'demo',
        amountCents: 8000,
        currency: 'usd',
      });
      expect(JSON.stringify(entry)).not.toContain(GOOD_CARD.number);
      expect(JSON.stringify(entry)).not.toContain('_secret_');
    });
  });

  describe('refunds', () => {
    const intent = (bookingId: string) => ({
      id: `pi_test_${randomUUID().replaceAll('-', '')}`,
      bookingId,
      amountCents: 8000,
      currency: 'usd',
      status: 'succeeded' as const,
      clientSecret: 'pi_test_secret_never_logged',
    });
    const paymentsWith = (refund: Payments['provider']['refund']): Payments =>
      ({
        db: t.db,
        provider: { ...t.app.payments.provider, name: 'demo', refund },
        mail: t.app.mailQueue,
      }) as Payments;

    it('a refund made: booking.refunded by the system, with the refund id, in one transaction', async () => {
      const bookingId = randomUUID();
      const charge = intent(bookingId);
      await refundOrphanedCharge(
        paymentsWith(async () => ({ id: 're_test_1', amountCents: 8000, currency: 'usd' })),
        t.app.log,
        charge,
        'its booking was cancelled',
      );

      const [entry, ...more] = await entries({ subjectId: bookingId });
      expect(more).toEqual([]);
      expect(entry).toMatchObject({
        actor_kind: 'system',
        actor_id: null,
        actor_name: 'payments',
        action: 'booking.refunded',
      });
      expect(JSON.parse(entry?.after ?? 'null')).toMatchObject({
        refundId: 're_test_1',
        transactionId: charge.id,
        amountCents: 8000,
      });
      expect(
        await t.db.selectFrom('refund').select('id').where('booking_id', '=', bookingId).execute(),
      ).toEqual([{ id: 're_test_1' }]);
    });

    it('a refund the provider refuses leaves no entry and no refund record', async () => {
      const bookingId = randomUUID();
      const refused = refundOrphanedCharge(
        paymentsWith(async () => {
          throw new RefundRefused('charge_already_refunded');
        }),
        t.app.log,
        intent(bookingId),
        'its booking was cancelled',
      );
      await expect(refused).rejects.toThrow(RefundRefused);

      expect(await entries({ subjectId: bookingId })).toEqual([]);
      expect(
        await t.db.selectFrom('refund').select('id').where('booking_id', '=', bookingId).execute(),
      ).toEqual([]);
    });

    it('a refund whose record cannot be written leaves no entry either', async () => {
      const bookingId = randomUUID();
      const refused = refundOrphanedCharge(
        paymentsWith(async () => ({
          id: 're_test_bad',
          // The refund table refuses a negative amount (its check constraint).
          amountCents: -1,
          currency: 'usd',
        })),
        t.app.log,
        intent(bookingId),
        'its booking was cancelled',
      );
      await expect(refused).rejects.toThrow();
      expect(await entries({ subjectId: bookingId })).toEqual([]);
    });

    it('the same refund recorded twice: one entry', async () => {
      const bookingId = randomUUID();
      const charge = intent(bookingId);
      const payments = paymentsWith(async () => ({
        id: 're_test_twice',
        amountCents: 8000,
        currency: 'usd',
      }));
      await refundOrphanedCharge(payments, t.app.log, charge, 'its booking was cancelled');
      await refundOrphanedCharge(payments, t.app.log, charge, 'its booking was cancelled');
      expect(await entries({ subjectId: bookingId })).toHaveLength(1);
    });
  });

  describe('roles and accounts', () => {
    it('make admin: role.granted by the admin, naming the account', async () => {
      const promoted = await signedUp(t.app, 'Promoted Person');
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/user/admin/${promoted.email}`,
        headers: bearer(admin.token),
      });
      expect(response.json()).toEqual({ modifiedCount: 1 });

      expect(await entries({ subjectId: promoted.id })).toEqual([
        expect.objectContaining({
          actor_kind: 'admin',
          actor_id: admin.id,
          actor_name: 'Audrey Admin',
          actor_email: admin.email,
          action: 'role.granted',
          subject_type: 'user',
          subject_label: promoted.email,
          before: JSON.stringify({ role: null }),
          after: JSON.stringify({ role: 'admin' }),
        }),
      ]);

      // Asked again, nothing changes and nothing is recorded.
      await t.app.inject({
        method: 'PUT',
        url: `/api/user/admin/${promoted.email}`,
        headers: bearer(admin.token),
      });
      expect(await entries({ subjectId: promoted.id })).toHaveLength(1);
    });

    it('make admin refused to a patient leaves no entry', async () => {
      const target = await signedUp(t.app, 'Not Promoted');
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/user/admin/${target.email}`,
        headers: bearer(jane.token),
      });
      expect(response.statusCode).toBe(403);
      expect(await entries({ subjectId: target.id })).toEqual([]);
    });

    it('the admin command line: role.granted and role.revoked by the system', async () => {
      const { setAdmin } = await import('../users/repository.js');
      const person = await signedUp(t.app, 'Console Admin');
      await setAdmin(t.db, person.email, true);
      await setAdmin(t.db, person.email, false);

      expect(
        (await entries({ subjectId: person.id }))
          .map((entry) => [
            entry.actor_kind,
            entry.actor_name,
            entry.action,
            entry.before,
            entry.after,
          ])
          // The two commands may fall within one millisecond, where `at` does not order them.
          .sort((a, b) => String(a[2]).localeCompare(String(b[2]))),
      ).toEqual([
        [
          'system',
          'admin-cli',
          'role.granted',
          JSON.stringify({ role: null }),
          JSON.stringify({ role: 'admin' }),
        ],
        [
          'system',
          'admin-cli',
          'role.revoked',
          JSON.stringify({ role: 'admin' }),
          JSON.stringify({ role: null }),
        ],
      ]);
    });

    it('an account removed: user.removed by the admin, with who it was', async () => {
      const leaving = await signedUp(t.app, 'Leaving Patient');
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/user/${leaving.email}`,
        headers: bearer(admin.token),
      });
      expect(response.json()).toEqual({ deletedCount: 1 });

      const [entry, ...more] = await entries({ subjectId: leaving.id });
      expect(more).toEqual([]);
      expect(entry).toMatchObject({
        actor_id: admin.id,
        action: 'user.removed',
        subject_label: leaving.email,
        after: null,
      });
      expect(JSON.parse(entry?.before ?? 'null')).toEqual({
        name: 'Leaving Patient',
        email: leaving.email,
        role: null,
      });
    });

    it('a removal refused (the last admin) leaves no entry', async () => {
      const before = await entries({ action: 'user.removed' });
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/user/${admin.email}`,
        headers: bearer(admin.token),
      });
      expect(response.statusCode).toBe(409);
      expect(await entries({ action: 'user.removed' })).toEqual(before);
    });
  });

  describe('doctors', () => {
    it('a doctor added and deleted: doctor.added and doctor.deleted by the admin', async () => {
      const email = await addDoctor(t, admin);
      const doctor = await t.db
        .selectFrom('doctor')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      const removed = await t.app.inject({
        method: 'DELETE',
        url: `/api/doctor/${email}`,
        headers: bearer(admin.token),
      });
      expect(removed.json()).toEqual({ deletedCount: 1 });

      const log = await entries({ subjectId: doctor.id });
      expect(log.map((entry) => [entry.actor_id, entry.action])).toEqual([
        [admin.id, 'doctor.added'],
        [admin.id, 'doctor.deleted'],
      ]);
      const fields = {
        name: doctor.name,
        email,
        specialty: 'Teeth Cleaning',
        image: doctor.image_url,
      };
      expect(JSON.parse(log[0]?.after ?? 'null')).toEqual(fields);
      expect(JSON.parse(log[1]?.before ?? 'null')).toEqual(fields);
    });

    it('a doctor refused (the email is listed already) leaves no second entry', async () => {
      const email = await addDoctor(t, admin);
      const image = (
        await t.db
          .selectFrom('doctor')
          .select('image_url')
          .where('email', '=', email)
          .executeTakeFirstOrThrow()
      ).image_url;
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/doctor',
        headers: bearer(admin.token),
        payload: { name: 'Dr Twin', email, specialty: 'Teeth Cleaning', image },
      });
      expect(again.statusCode).toBe(409);

      const added = await t.db
        .selectFrom('audit_log')
        .select('subject_label')
        .where('action', '=', 'doctor.added')
        .where('subject_label', 'like', `%<${email}>`)
        .execute();
      expect(added).toHaveLength(1);
    });
  });

  it('never holds a password, an access token, a client secret or a card number', async () => {
    const everything = JSON.stringify(await t.db.selectFrom('audit_log').selectAll().execute());
    const secrets = await t.db.selectFrom('demo_payment_intent').select('client_secret').execute();
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of [
      'plaque-free-smile-42',
      admin.token,
      jane.token,
      ...secrets.map((row) => row.client_secret),
      GOOD_CARD.number,
      '"cvc"',
      '"card"',
    ]) {
      expect(everything).not.toContain(secret);
    }
  });
});

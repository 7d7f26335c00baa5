import type { AvailableTreatment } from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, seedPatients } from '../../test/accounts.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  bookingRow,
  type Patient,
  signedUpAdmin,
  signedUpPatient,
} from '../../test/payment-fixtures.js';
import { uploadPhoto } from '../../test/security-fixtures.js';
import {
  type ReceivedMail,
  startTestSmtpServer,
  type TestSmtpServer,
} from '../../test/smtp-server.js';
import type { Booking } from '../db/schema.js';
import { bookingErrors } from './errors.js';
import { insertBooking, newBookingRow } from './repository.js';

/**
 * `POST /api/booking/{id}/reschedule` (issue 16, item 3): a patient moves their own upcoming
 * booking in place to another date or slot of the same treatment, under the booking rules; the
 * unique indexes decide races; the patient gets an updated .ics with the same UID.
 */

const CLEANING = { id: 'teeth-cleaning', name: 'Teeth Cleaning', priceCents: 8000 };
const TEN = '10:00 AM - 10:30 AM';
const ELEVEN = '11:00 AM - 11:30 AM';

/** A live booking of the patient's with its time units, written through the repository. */
async function stored(
  t: TestApp,
  patient: { id: string; email: string; name: string },
  fields: Partial<Booking> = {},
): Promise<Booking> {
  const booking: Booking = {
    ...newBookingRow({
      treatment_id: CLEANING.id,
      treatment_name: CLEANING.name,
      price_cents: CLEANING.priceCents,
      date: clinicDay(100),
      slot: TEN,
      patient_id: patient.id,
      patient_email: patient.email,
      patient_name: patient.name,
      phone: '+1 555 010 2030',
      age: 34,
    }),
    ...fields,
  };
  await t.db.transaction().execute((tx) => insertBooking(tx, booking));
  return booking;
}

const reschedule = (
  app: FastifyInstance,
  token: string | null,
  id: string,
  body: Record<string, unknown>,
) =>
  app.inject({
    method: 'POST',
    url: `/api/booking/${id}/reschedule`,
    headers: token ? bearer(token) : {},
    payload: body,
  });

async function freeSlots(app: FastifyInstance, day: number, treatmentId = CLEANING.id) {
  const response = await app.inject(`/api/available?date=${encodeURIComponent(mediumDay(day))}`);
  const treatments = response.json() as AvailableTreatment[];
  return treatments.find((treatment) => treatment._id === treatmentId)?.slots ?? [];
}

const calendarOf = (mail: ReceivedMail) =>
  mail.attachments.find((part) => part.filename?.endsWith('.ics'))?.content.toString('utf8') ?? '';

describe(`rescheduling a booking (${engine})`, () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let jane: Patient;
  let omar: Patient;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await buildTestApp({
      env: { SMTP_URL: smtp.url, MAIL_RATE: '1000', MIN_BOOKING_NOTICE_MINUTES: '120' },
    });
    [jane, omar] = await Promise.all([
      signedUpPatient(t.app, 'Jane Doe'),
      signedUpPatient(t.app, 'Omar Haddad'),
    ]);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('moves the booking in place: the same id, paid stays paid, the old slot bookable again', async () => {
    const booking = await stored(t, jane, {
      date: clinicDay(101),
      paid_at: new Date().toISOString(),
      transaction_id: 'pi_paid_before_moving',
      status: 'confirmed',
    });
    expect(await freeSlots(t.app, 101)).not.toContain(TEN);

    const response = await reschedule(t.app, jane.token, booking.id, {
      date: mediumDay(102),
      slot: ELEVEN,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      booking: {
        _id: booking.id,
        date: mediumDay(102),
        slot: ELEVEN,
        treatmentId: CLEANING.id,
        paid: true,
        transactionId: 'pi_paid_before_moving',
        status: 'confirmed',
      },
    });
    expect(await bookingRow(t, booking.id)).toMatchObject({
      date: clinicDay(102),
      slot: ELEVEN,
      paid_at: booking.paid_at,
      transaction_id: 'pi_paid_before_moving',
      sequence: 1,
    });
    const units = await t.db
      .selectFrom('booking_unit')
      .select(['date', 'unit'])
      .where('booking_id', '=', booking.id)
      .execute();
    expect(units.length).toBeGreaterThan(0);
    expect(new Set(units.map((unit) => unit.date))).toEqual(new Set([clinicDay(102)]));
    // One booking, not two.
    const rows = await t.db
      .selectFrom('booking')
      .select('id')
      .where('patient_id', '=', jane.id)
      .where('status', '<>', 'cancelled')
      .execute();
    expect(rows.filter((row) => row.id === booking.id)).toHaveLength(1);
    // The old slot is offered, and bookable, again; the new one is not.
    expect(await freeSlots(t.app, 101)).toContain(TEN);
    expect(await freeSlots(t.app, 102)).not.toContain(ELEVEN);
    const rebooked = await t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(omar.token),
      payload: {
        treatmentId: CLEANING.id,
        date: mediumDay(101),
        slot: TEN,
        phone: '+1 555 010 4444',
        age: 40,
      },
    });
    expect(rebooked.statusCode, rebooked.body).toBe(201);
  });

  it('mails an updated confirmation whose .ics has the same UID and SEQUENCE:1, and audits the move', async () => {
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(jane.token),
      payload: {
        treatmentId: CLEANING.id,
        date: mediumDay(110),
        slot: TEN,
        phone: '+1 555 010 2030',
        age: 34,
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const id = booked.json().booking._id as string;
    const confirmation = await smtp.waitForMail(
      (mail) =>
        mail.envelope.to.includes(jane.email) &&
        (mail.subject ?? '') ===
          `Appointment confirmed: Teeth Cleaning on ${mediumDay(110)} at ${TEN}`,
    );
    const first = calendarOf(confirmation);
    const uid = /^UID:(.+)$/m.exec(first)?.[1];
    expect(uid).toContain(id);
    expect(first).toMatch(/^SEQUENCE:0\r?$/m);

    const response = await reschedule(t.app, jane.token, id, {
      date: mediumDay(111),
      slot: ELEVEN,
    });
    expect(response.statusCode, response.body).toBe(200);
    const moved = await smtp.waitForMail(
      (mail) =>
        mail.envelope.to.includes(jane.email) &&
        mail.subject === `Appointment moved: Teeth Cleaning on ${mediumDay(111)} at ${ELEVEN}`,
    );
    expect(moved.text).toContain(
      `from ${mediumDay(110)} at ${TEN} to ${mediumDay(111)} at ${ELEVEN}`,
    );
    const updated = calendarOf(moved);
    expect(/^UID:(.+)$/m.exec(updated)?.[1]).toBe(uid);
    expect(updated).toMatch(/^SEQUENCE:1\r?$/m);
    expect(updated).toMatch(/^METHOD:PUBLISH\r?$/m);

    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor_kind', 'actor_id', 'before', 'after'])
      .where('subject_id', '=', id)
      .where('action', '=', 'booking.rescheduled')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_kind: 'patient', actor_id: jane.id });
    expect(JSON.parse(audit[0]?.before ?? '')).toEqual({ date: clinicDay(110), slot: TEN });
    expect(JSON.parse(audit[0]?.after ?? '')).toEqual({ date: clinicDay(111), slot: ELEVEN });

    // The clinic's cancellation outranks the moved event: SEQUENCE 2, the same UID.
    const admin = await signedUpAdmin(t, 'Front Desk');
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/booking/${id}/cancel`,
      headers: bearer(admin.token),
      payload: { reason: 'The hygienist is ill.' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const cancellation = await smtp.waitForMail(
      (mail) =>
        mail.envelope.to.includes(jane.email) &&
        (mail.subject ?? '').startsWith('Appointment cancelled'),
    );
    const withdrawn = calendarOf(cancellation);
    expect(/^UID:(.+)$/m.exec(withdrawn)?.[1]).toBe(uid);
    expect(withdrawn).toMatch(/^METHOD:CANCEL\r?$/m);
    expect(withdrawn).toMatch(/^SEQUENCE:2\r?$/m);
  });

  it('moves a booking with a doctor, keeping the doctor and moving the doctor’s time', async () => {
    const admin = await signedUpAdmin(t, 'Doctors Admin');
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/doctor',
      headers: bearer(admin.token),
      payload: {
        name: 'Dr. Nora Vale',
        email: 'nora.vale@clinic.com',
        specialty: 'Fluoride Treatment',
        workDays: [0, 1, 2, 3, 4, 5, 6],
        image: await uploadPhoto(t, { ...admin, cookie: '' }),
      },
    });
    expect(added.statusCode, added.body).toBe(201);
    const novak = {
      id: (added.json() as { insertedId: string }).insertedId,
      name: 'Dr. Nora Vale',
    };
    const booking = await stored(t, jane, {
      treatment_id: 'fluoride-treatment',
      treatment_name: 'Fluoride Treatment',
      price_cents: 4500,
      date: clinicDay(120),
      slot: TEN,
      doctor_id: novak.id,
      doctor_name: novak.name,
    });
    const response = await reschedule(t.app, jane.token, booking.id, {
      date: mediumDay(121),
      slot: '10:30 AM - 11:00 AM',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().booking.doctor).toEqual({ _id: novak.id, name: novak.name });
    const doctorUnits = await t.db
      .selectFrom('doctor_unit')
      .select('date')
      .where('booking_id', '=', booking.id)
      .execute();
    expect(doctorUnits.length).toBeGreaterThan(0);
    expect(new Set(doctorUnits.map((unit) => unit.date))).toEqual(new Set([clinicDay(121)]));
    expect(await freeSlots(t.app, 120, 'fluoride-treatment')).toContain(TEN);
  });

  it('lets exactly one of 200 concurrent reschedules into one free slot through; the others keep theirs', async () => {
    const crowd = await seedPatients(t.db, engine, 200);
    const bookings = await Promise.all(
      crowd.map((person, index) =>
        stored(
          t,
          { id: person.userId, email: person.email, name: person.name },
          { date: clinicDay(200 + index), slot: TEN },
        ),
      ),
    );
    const tokens = await Promise.all(
      crowd.map(async (person) => (await t.app.accessTokens.issue(person)).token),
    );
    const responses = await Promise.all(
      bookings.map((booking, index) =>
        reschedule(t.app, tokens[index] ?? null, booking.id, {
          date: mediumDay(150),
          slot: ELEVEN,
        }),
      ),
    );
    const codes = responses.map((response) => response.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(199);
    for (const response of responses.filter((each) => each.statusCode === 409)) {
      expect(response.json().message).toBe(
        'Sorry, someone has just booked this slot. Please pick another one.',
      );
    }
    const winner = bookings[codes.indexOf(200)];
    const rows = await t.db
      .selectFrom('booking')
      .select(['id', 'date', 'slot', 'sequence'])
      .where(
        'id',
        'in',
        bookings.map((booking) => booking.id),
      )
      .execute();
    for (const row of rows) {
      const before = bookings.find((booking) => booking.id === row.id);
      if (row.id === winner?.id) {
        expect(row).toMatchObject({ date: clinicDay(150), slot: ELEVEN, sequence: 1 });
      } else {
        expect(row).toMatchObject({ date: before?.date, slot: TEN, sequence: 0 });
      }
    }
    // The losers still hold their own time.
    const held = await t.db
      .selectFrom('booking_unit')
      .select('booking_id')
      .distinct()
      .where(
        'booking_id',
        'in',
        bookings.map((booking) => booking.id),
      )
      .execute();
    expect(held).toHaveLength(200);
  }, 60_000);

  describe('refuses, saying why', () => {
    it('the same date and slot: nothing to change', async () => {
      const booking = await stored(t, jane, { date: clinicDay(130) });
      const response = await reschedule(t.app, jane.token, booking.id, {
        date: mediumDay(130),
        slot: TEN,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(bookingErrors.nothingToChange);
    });

    it('a slot someone else holds: 409, and the booking keeps its slot', async () => {
      const mine = await stored(t, jane, { date: clinicDay(131) });
      await stored(t, omar, { date: clinicDay(132), slot: ELEVEN });
      const response = await reschedule(t.app, jane.token, mine.id, {
        date: mediumDay(132),
        slot: ELEVEN,
      });
      expect(response.statusCode).toBe(409);
      expect(await bookingRow(t, mine.id)).toMatchObject({ date: clinicDay(131), slot: TEN });
      expect(await freeSlots(t.app, 131)).not.toContain(TEN);
    });

    it('a cancelled booking: 409 saying so; someone else’s: 403; an unknown one: 404', async () => {
      const cancelled = await stored(t, jane, {
        date: clinicDay(133),
        status: 'cancelled',
        cancelled_at: new Date().toISOString(),
      });
      const body = { date: mediumDay(134), slot: ELEVEN };
      const moved = await reschedule(t.app, jane.token, cancelled.id, body);
      expect(moved.statusCode).toBe(409);
      expect(moved.json().message).toBe(bookingErrors.alreadyCancelled);
      const janes = await stored(t, jane, { date: clinicDay(135) });
      const theirs = await reschedule(t.app, omar.token, janes.id, body);
      expect(theirs.statusCode).toBe(403);
      expect(theirs.json().message).toBe(bookingErrors.notYourBookingToMove);
      expect((await reschedule(t.app, omar.token, 'not-a-uuid', body)).statusCode).toBe(404);
      expect(
        (await reschedule(t.app, jane.token, '7d0c43a4-6c8b-4d53-9a43-4f1a8e7b6f00', body))
          .statusCode,
      ).toBe(404);
      // An administrator does not move a patient's booking this way either.
      const admin = await signedUpAdmin(t);
      expect((await reschedule(t.app, admin.token, janes.id, body)).statusCode).toBe(403);
      expect((await reschedule(t.app, null, janes.id, body)).statusCode).toBe(401);
    });

    it('a past booking, or one that has started or is no longer booked: 409', async () => {
      const body = { date: mediumDay(137), slot: ELEVEN };
      const past = await stored(t, jane, { date: clinicDay(-3) });
      const response = await reschedule(t.app, jane.token, past.id, body);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(bookingErrors.notMovable);
      // The test clock stands at noon: this morning's visit has started.
      const started = await stored(t, jane, { date: clinicDay(0) });
      expect((await reschedule(t.app, jane.token, started.id, body)).statusCode).toBe(409);
      const seen = await stored(t, jane, { date: clinicDay(138), status: 'arrived' });
      expect((await reschedule(t.app, jane.token, seen.id, body)).statusCode).toBe(409);
    });

    it('the booking rules: past date, beyond the horizon, a slot not offered, started, inside the minimum notice, a closed day', async () => {
      const booking = await stored(t, jane, { date: clinicDay(140) });
      const refused = async (body: Record<string, unknown>) => {
        const response = await reschedule(t.app, jane.token, booking.id, body);
        expect(response.statusCode, response.body).toBe(400);
        return response.json().message as string;
      };
      expect(await refused({ date: mediumDay(-1), slot: ELEVEN })).toBe(bookingErrors.pastDate);
      expect(await refused({ date: mediumDay(800), slot: ELEVEN })).toMatch(/up to 730 days/);
      expect(await refused({ date: mediumDay(141), slot: '3:00 AM - 3:30 AM' })).toBe(
        bookingErrors.slotNotOffered,
      );
      expect(await refused({ date: mediumDay(0), slot: TEN })).toBe(bookingErrors.slotStarted);
      expect(await refused({ date: mediumDay(0), slot: '12:30 PM - 1:00 PM' })).toMatch(
        /notice|hours|minutes/i,
      );
      expect(await refused({ date: clinicDay(141), slot: ELEVEN })).toBeTruthy(); // ISO: not the medium format
      const admin = await signedUpAdmin(t, 'Calendar Admin');
      const closure = await t.app.inject({
        method: 'POST',
        url: '/api/closures',
        headers: bearer(admin.token),
        payload: { from: clinicDay(142), to: clinicDay(142), label: 'Staff training' },
      });
      expect(closure.statusCode, closure.body).toBe(201);
      expect(await refused({ date: mediumDay(142), slot: ELEVEN })).toMatch(
        /Staff training|closed/i,
      );
      expect(await bookingRow(t, booking.id)).toMatchObject({
        date: clinicDay(140),
        slot: TEN,
        sequence: 0,
      });
    });
  });
});

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, bearer, markVerified, signUp } from '../../test/accounts.js';
import { storedDoctor } from '../../test/admin-fixtures.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  bookingRow,
  type Patient,
  paymentCalls,
  signedUpAdmin,
  unpaidBooking,
} from '../../test/payment-fixtures.js';
import { LOGIN_FAILURES } from '../auth/login-failures.js';
import { CANCELLED_BY_FORMER_PATIENT } from '../bookings/repository.js';
import { insertEntry } from '../waitlist/repository.js';
import { FORMER_PATIENT } from './account.js';
import { accountErrors } from './account-routes.js';

interface Signed extends Patient {
  password: string;
}

async function patient(app: FastifyInstance, name: string): Promise<Signed> {
  const account = await signUp(app, { name });
  return {
    id: account.id,
    email: account.email,
    name,
    password: account.password,
    token: await accessToken(app, account),
  };
}

const history = (app: FastifyInstance, token: string) =>
  app.inject({ method: 'GET', url: '/api/booking/history', headers: bearer(token) });

const exportData = (app: FastifyInstance, token: string) =>
  app.inject({ method: 'GET', url: '/api/account/export', headers: bearer(token) });

const removeAccount = (app: FastifyInstance, token: string, payload: Record<string, unknown>) =>
  app.inject({
    method: 'DELETE',
    url: '/api/account',
    headers: { ...bearer(token), origin: app.config.publicUrl },
    payload,
  });

const book = (app: FastifyInstance, token: string, day: number, slot = '10:00 AM - 10:30 AM') =>
  app.inject({
    method: 'POST',
    url: '/api/booking',
    headers: bearer(token),
    payload: {
      treatmentId: 'teeth-cleaning',
      date: mediumDay(day),
      slot,
      phone: '+1 555 010 7788',
      age: 30,
    },
  });

describe(`the patient's history and account (${engine})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it("lists only the caller's past and cancelled visits, the latest first, with their status", async () => {
    const me = await patient(t.app, 'History Owner');
    const other = await patient(t.app, 'Someone Else');
    const mayaId = await storedDoctor(t.db, 'Dr. Maya Chen');
    const completed = await unpaidBooking(t, me, {
      date: clinicDay(-10),
      status: 'completed',
      paid_at: new Date().toISOString(),
      transaction_id: 'tx_1',
      doctor_id: mayaId,
      doctor_name: 'Dr. Maya Chen',
    });
    const missed = await unpaidBooking(t, me, { date: clinicDay(-5), status: 'no_show' });
    const past = await unpaidBooking(t, me, { date: clinicDay(-3) });
    const mine = await unpaidBooking(t, me, {
      date: clinicDay(40),
      status: 'cancelled',
      cancelled_by: me.id,
      cancelled_at: new Date().toISOString(),
    });
    const byClinic = await unpaidBooking(t, me, {
      date: clinicDay(41),
      status: 'cancelled',
      cancelled_by: other.id,
      cancelled_at: new Date().toISOString(),
    });
    await unpaidBooking(t, me, { date: clinicDay(42) });
    await unpaidBooking(t, other, { date: clinicDay(-4) });

    const response = await history(t.app, me.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toMatch(/no-store/);
    const entries = response.json() as { _id: string; status: string; date: string }[];
    expect(entries.map((entry) => [entry._id, entry.status])).toEqual([
      [byClinic.id, 'cancelled_by_clinic'],
      [mine.id, 'cancelled_by_patient'],
      [past.id, 'past'],
      [missed.id, 'no_show'],
      [completed.id, 'completed'],
    ]);
    expect(entries.at(-1)).toMatchObject({
      date: mediumDay(-10),
      treatment: 'Teeth Cleaning',
      doctor: { _id: mayaId, name: 'Dr. Maya Chen' },
      paid: true,
      refunded: false,
    });
    expect((await history(t.app, other.token)).json()).toHaveLength(1);
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/booking/history' });
    expect(response.statusCode).toBe(401);
  });

  it('exports the caller’s bookings, cancelled ones too, as a JSON attachment without secrets', async () => {
    const me = await patient(t.app, 'Export Owner');
    const doctorId = await storedDoctor(t.db, 'Dr. Export');
    const live = await unpaidBooking(t, me, {
      date: clinicDay(50),
      doctor_id: doctorId,
      doctor_name: 'Dr. Export',
    });
    const gone = await unpaidBooking(t, me, {
      date: clinicDay(51),
      status: 'cancelled',
      cancelled_by: me.id,
    });
    const response = await exportData(t.app, me.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename=".+\.json"$/);
    expect(response.headers['cache-control']).toMatch(/no-store/);
    const data = response.json() as {
      profile: { email: string; signInMethods: string[] };
      bookings: { id: string; status: string; doctor: unknown }[];
    };
    expect(data.profile).toMatchObject({ email: me.email, signInMethods: ['credential'] });
    expect(data.bookings.map((booking) => booking.id).sort()).toEqual([live.id, gone.id].sort());
    expect(data.bookings.find((booking) => booking.id === live.id)?.doctor).toEqual({
      _id: doctorId,
      name: 'Dr. Export',
    });
    expect(data.bookings.find((booking) => booking.id === gone.id)?.doctor).toBeNull();
    const { password } = await t.db
      .withTables<{ account: { userId: string; password: string | null } }>()
      .selectFrom('account')
      .select('password')
      .where('userId', '=', me.id)
      .executeTakeFirstOrThrow();
    const sessions = await t.db
      .selectFrom('session')
      .select(['id', 'token'])
      .where('userId', '=', me.id)
      .execute();
    expect(response.body).not.toContain(String(password));
    expect(response.body).not.toContain(me.token);
    expect(response.body).not.toContain(me.password);
    for (const session of sessions) {
      expect(response.body).not.toContain(session.token);
      expect(response.body).not.toContain(session.id);
    }
    expect(response.body).not.toMatch(/password|token|secret/i);
  });

  it("exports the caller's waitlist and messages, and none of an address's former owner's", async () => {
    const first = await patient(t.app, 'First Owner');
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { email: first.email, subject: 'About my visit', message: 'Is there parking?' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    await insertEntry(t.db, {
      patientId: first.id,
      treatmentId: 'teeth-cleaning',
      date: clinicDay(70),
      now: new Date(),
    });
    const mine = (await exportData(t.app, first.token)).json();
    expect(mine.contactMessages).toEqual([
      expect.objectContaining({ subject: 'About my visit', message: 'Is there parking?' }),
    ]);
    expect(mine.waitlist).toEqual([
      expect.objectContaining({ treatment: 'Teeth Cleaning', date: clinicDay(70) }),
    ]);

    expect((await removeAccount(t.app, first.token, { password: first.password })).statusCode).toBe(
      200,
    );
    const account = await signUp(t.app, { name: 'Next Owner', email: first.email });
    const next = (await exportData(t.app, await accessToken(t.app, account))).json();
    expect(next.contactMessages).toEqual([]);
    expect(next.waitlist).toEqual([]);
  });

  it('exports the messages sent with its address only once the account has proved it owns it', async () => {
    const account = await signUp(t.app, { name: 'Early Claimant', verified: false });
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { email: account.email, subject: 'Private', message: 'My test results' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const token = await accessToken(t.app, account);
    const unverified = (await exportData(t.app, token)).json();
    expect(unverified.profile.emailVerified).toBe(false);
    expect(unverified.contactMessages).toEqual([]);

    await markVerified(t.db, account.email);
    const verified = (await exportData(t.app, token)).json();
    expect(verified.contactMessages).toEqual([
      expect.objectContaining({ subject: 'Private', message: 'My test results' }),
    ]);
  });

  it('removes the account only with the current password', async () => {
    const me = await patient(t.app, 'Careful Owner');
    const wrong = await removeAccount(t.app, me.token, { password: 'not-my-password' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ message: accountErrors.wrongPassword });
    const none = await removeAccount(t.app, me.token, { confirmation: 'DELETE' });
    expect(none.statusCode).toBe(403);
    expect((await history(t.app, me.token)).statusCode).toBe(200);
  });

  it('pauses after as many wrong passwords as sign-in allows, and keeps the account', async () => {
    const me = await patient(t.app, 'Guessed Owner');
    for (let attempt = 0; attempt < LOGIN_FAILURES.max; attempt++) {
      const wrong = await removeAccount(t.app, me.token, { password: `guess-${attempt}` });
      expect(wrong.statusCode).toBe(403);
    }
    const paused = await removeAccount(t.app, me.token, { password: me.password });
    expect(paused.statusCode).toBe(429);
    expect(paused.json().message).toMatch(/^Too many wrong passwords for this account/);
    expect(Number(paused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await history(t.app, me.token)).statusCode).toBe(200);
  });

  it('checks no more wrong passwords than sign-in allows when they are sent all at once', async () => {
    const me = await patient(t.app, 'Raced Owner');
    const guesses = await Promise.all(
      Array.from({ length: 4 * LOGIN_FAILURES.max }, (_, attempt) =>
        removeAccount(t.app, me.token, { password: `guess-${attempt}` }),
      ),
    );
    const checked = guesses.filter((answer) => answer.statusCode === 403).length;
    expect(checked).toBeLessThanOrEqual(LOGIN_FAILURES.max);
    expect(guesses.every((answer) => [403, 429].includes(answer.statusCode))).toBe(true);
    expect((await removeAccount(t.app, me.token, { password: me.password })).statusCode).toBe(429);
    expect((await history(t.app, me.token)).statusCode).toBe(200);
  });

  it("refuses an administrator's own removal here", async () => {
    const admin = await signedUpAdmin(t, 'Admin Owner');
    const response = await removeAccount(t.app, admin.token, { password: 'x' });
    expect(response.statusCode).toBe(409);
  });

  it('keeps, on the clinic’s schedule, the patient’s own cancellations theirs once the account is gone', async () => {
    const me = await patient(t.app, 'Cancelling Leaver');
    const admin = await signedUpAdmin(t, 'Schedule Reader');
    const ownId = ((await book(t.app, me.token, 80)).json() as { booking: { _id: string } }).booking
      ._id;
    const cancelledOwn = await t.app.inject({
      method: 'DELETE',
      url: `/api/booking/${ownId}`,
      headers: bearer(me.token),
    });
    expect(cancelledOwn.statusCode, cancelledOwn.body).toBe(200);
    const byRemoval = await unpaidBooking(t, me, { date: clinicDay(81) });
    const byClinic = await unpaidBooking(t, me, {
      date: clinicDay(82),
      status: 'cancelled',
      cancelled_at: new Date().toISOString(),
      cancelled_by: admin.id,
      cancel_reason: 'Dentist ill',
    });
    expect((await removeAccount(t.app, me.token, { password: me.password })).statusCode).toBe(200);

    const schedule = await t.app.inject({
      url: `/api/schedule?from=${clinicDay(80)}&to=${clinicDay(82)}`,
      headers: bearer(admin.token),
    });
    expect(schedule.statusCode, schedule.body).toBe(200);
    const cancelledBy = new Map(
      (schedule.json() as { bookings: { _id: string; cancelledBy: string | null }[] }).bookings.map(
        (entry) => [entry._id, entry.cancelledBy],
      ),
    );
    expect(cancelledBy.get(ownId)).toBe('patient');
    expect(cancelledBy.get(byRemoval.id)).toBe('patient');
    expect(cancelledBy.get(byClinic.id)).toBe('clinic');
  });

  it('keeps on the records an unpaid visit of today that has already begun', async () => {
    const me = await patient(t.app, 'Leaving After A Visit');
    // Midnight's slot has begun whenever today the test runs.
    const begun = await unpaidBooking(t, me, { date: clinicDay(0), slot: '12:00 AM - 12:30 AM' });
    const later = await unpaidBooking(t, me, { date: clinicDay(75) });
    const response = await removeAccount(t.app, me.token, { password: me.password });
    expect(response.json()).toEqual({ deletedCount: 1, cancelledBookings: 1 });
    expect(await bookingRow(t, later.id)).toMatchObject({ status: 'cancelled' });
    expect(await bookingRow(t, begun.id)).toMatchObject({
      status: 'booked',
      cancelled_by: null,
      patient_id: null,
      patient_name: FORMER_PATIENT.name,
    });
  });

  it('stops a card payment under way before cancelling its booking', async () => {
    const me = await patient(t.app, 'Paying Leaver');
    const booking = await unpaidBooking(t, me, { date: clinicDay(70) });
    const intent = await paymentCalls(t.app).createIntent(me, { bookingId: booking.id, price: 80 });
    expect(intent.statusCode).toBe(200);
    const response = await removeAccount(t.app, me.token, { password: me.password });
    expect(response.json()).toEqual({ deletedCount: 1, cancelledBookings: 1 });
    const stored = await t.db
      .selectFrom('demo_payment_intent')
      .select('canceled_at')
      .where('booking_id', '=', booking.id)
      .executeTakeFirstOrThrow();
    expect(stored.canceled_at).not.toBeNull();
    expect(await bookingRow(t, booking.id)).toMatchObject({
      status: 'cancelled',
      patient_id: null,
    });
  });

  it('cancels upcoming unpaid bookings, keeps the rest anonymised, ends the sessions, audits it', async () => {
    const me = await patient(t.app, 'Leaving Patient');
    const booked = await book(t.app, me.token, 60);
    expect(booked.statusCode).toBe(201);
    const upcomingId = (booked.json() as { booking: { _id: string } }).booking._id;
    const paid = await unpaidBooking(t, me, {
      date: clinicDay(61),
      paid_at: new Date().toISOString(),
      transaction_id: 'tx_paid',
    });
    const past = await unpaidBooking(t, me, { date: clinicDay(-20), status: 'completed' });

    const response = await removeAccount(t.app, me.token, { password: me.password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ deletedCount: 1, cancelledBookings: 1 });

    const upcoming = await bookingRow(t, upcomingId);
    // Cancelled by its patient, who no longer has an id to be named by.
    expect(upcoming).toMatchObject({
      status: 'cancelled',
      cancelled_by: CANCELLED_BY_FORMER_PATIENT,
    });
    for (const kept of [paid, past]) {
      const row = await bookingRow(t, kept.id);
      expect(row).toMatchObject({
        patient_id: null,
        patient_name: FORMER_PATIENT.name,
        phone: FORMER_PATIENT.phone,
        status: kept.status,
      });
    }
    expect(await bookingRow(t, upcomingId)).toMatchObject({ patient_id: null });

    // The freed slot is bookable again.
    const someoneElse = await patient(t.app, 'Next Patient');
    expect((await book(t.app, someoneElse.token, 60)).statusCode).toBe(201);

    // The old token and the account are gone.
    expect((await history(t.app, me.token)).statusCode).toBe(401);
    const user = await t.db.selectFrom('user').select('id').where('id', '=', me.id).execute();
    const sessions = await t.db
      .selectFrom('session')
      .select('id')
      .where('userId', '=', me.id)
      .execute();
    expect(user).toEqual([]);
    expect(sessions).toEqual([]);

    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor_kind', 'actor_id', 'subject_id'])
      .where('actor_id', '=', me.id)
      .orderBy('at')
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        {
          action: 'booking.cancelled',
          actor_kind: 'patient',
          actor_id: me.id,
          subject_id: upcomingId,
        },
        { action: 'user.removed', actor_kind: 'patient', actor_id: me.id, subject_id: me.id },
      ]),
    );
  });
});

import { formatMediumDate, type IsoDate, slotsBetween } from '@doctors-portal/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { clinicDay, TEST_NOW } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { type Patient, signedUpAdmin, signedUpPatient } from '../../test/payment-fixtures.js';
import {
  type ReceivedMail,
  startTestSmtpServer,
  type TestSmtpServer,
} from '../../test/smtp-server.js';
import { clinicInstant, clock } from '../bookings/clock.js';
import { visitLinkSignerOf, visitStart } from '../visits/mail-links.js';

const [TEN, , ELEVEN] = slotsBetween('10:00 AM', '11:30 AM', 30) as [string, string, string];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isReminder = (mail: ReceivedMail) => mail.subject?.startsWith('Reminder:') ?? false;
const reminderBooking = (mail: ReceivedMail) =>
  /booking-(.+)-reminder-(\d+)@/.exec(mail.messageId ?? '')?.slice(1);

/**
 * A visit's reminder through the paths reminders.test.ts does not take: the mail's own links, the
 * clinic's cancellation, and a relay that refuses it for a while. Each mail sent is read as the
 * patient's relay received it.
 */
describe(`a visit's reminder along every path that changes the visit (${engine})`, () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let admin: Patient;
  const owners = new Map<string, Patient>();

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await buildTestApp({ env: { SMTP_URL: smtp.url, MAIL_RATE: '1000' } });
  });
  /** A fresh administrator, signed in at the (moved) clock's now. */
  const freshAdmin = async () => {
    admin = await signedUpAdmin(t, `Clinic Admin ${owners.size}`);
    const email = admin.email;
    await smtp.waitForMail(
      (m) => m.envelope.to.includes(email) && (m.subject?.startsWith('Verify') ?? false),
    );
    return admin;
  };
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: TEST_NOW });
    vi.spyOn(clock, 'now').mockImplementation(() => new Date());
    smtp.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
    await smtp?.close();
  });

  const zone = () => t.config.clinic.timeZone;
  const at = (date: IsoDate, minutes: number) => clinicInstant(zone(), date, minutes);
  function moveClockTo(when: Date) {
    vi.setSystemTime(when);
    t.app.mailQueue.wake();
  }
  const pending = (bookingId: string) =>
    t.db
      .selectFrom('mail_queue')
      .select(['booking_id', 'send_after', 'attempts', 'last_error', 'payload'])
      .where('kind', '=', 'booking-reminder')
      .where('booking_id', '=', bookingId)
      .execute();
  const remindersOf = (id: string) =>
    smtp.messages.filter((m) => isReminder(m) && reminderBooking(m)?.[0] === id);

  async function book(date: IsoDate, slot: string) {
    const patient = await signedUpPatient(t.app, `Patient ${owners.size + 1}`);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(patient.token),
      payload: {
        treatmentId: 'teeth-cleaning',
        date: formatMediumDate(date),
        slot,
        phone: '+1 555 010 2030',
        age: 34,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const id = (response.json() as { booking: { _id: string } }).booking._id;
    owners.set(id, patient);
    for (const subject of ['Verify', 'Appointment confirmed']) {
      await smtp.waitForMail(
        (m) => m.envelope.to.includes(patient.email) && (m.subject?.startsWith(subject) ?? false),
      );
    }
    return id;
  }

  async function linkOf(id: string, action: 'confirm' | 'cancel' | 'reschedule') {
    const row = await t.db
      .selectFrom('booking')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return visitLinkSignerOf(t.app.config).sign({
      bookingId: id,
      action,
      sequence: row.sequence,
      expiresAt: visitStart(zone(), row.date, row.slot),
    });
  }

  it('a visit moved through the mail link is reminded at its new moment only, once', async () => {
    const id = await book(clinicDay(30), TEN);
    const token = await linkOf(id, 'reschedule');
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/visit/${token}/reschedule`,
      payload: { date: formatMediumDate(clinicDay(32)), slot: ELEVEN },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const rows = await pending(id);
    expect(rows.map((r) => r.send_after)).toEqual([at(clinicDay(31), 660).toISOString()]);
    moveClockTo(at(clinicDay(29), 600));
    await pause(300);
    expect(remindersOf(id)).toHaveLength(0);
    moveClockTo(at(clinicDay(31), 660));
    await smtp.waitForMail((m) => isReminder(m) && reminderBooking(m)?.[0] === id, 5_000);
    await pause(300);
    expect(remindersOf(id).map(reminderBooking)).toEqual([[id, '1']]);
  });

  it('a visit confirmed through the link keeps its reminder; one cancelled through the link or by the clinic loses it', async () => {
    const confirmed = await book(clinicDay(40), TEN);
    const byLink = await book(clinicDay(40), ELEVEN);
    const byClinic = await book(clinicDay(41), TEN);
    const c = await t.app.inject({
      method: 'POST',
      url: `/api/visit/${await linkOf(confirmed, 'confirm')}/confirm`,
    });
    expect(c.statusCode, c.body).toBe(200);
    const l = await t.app.inject({
      method: 'POST',
      url: `/api/visit/${await linkOf(byLink, 'cancel')}/cancel`,
    });
    expect(l.statusCode, l.body).toBe(200);
    await freshAdmin();
    const k = await t.app.inject({
      method: 'POST',
      url: `/api/booking/${byClinic}/cancel`,
      headers: bearer(admin.token),
      payload: { reason: 'Closed for a burst pipe' },
    });
    expect(k.statusCode, k.body).toBe(200);
    expect(await pending(confirmed)).toHaveLength(1);
    expect(await pending(byLink)).toHaveLength(0);
    expect(await pending(byClinic)).toHaveLength(0);
    moveClockTo(at(clinicDay(40), 0));
    await smtp.waitForMail((m) => isReminder(m) && reminderBooking(m)?.[0] === confirmed, 5_000);
    await pause(300);
    expect(remindersOf(confirmed)).toHaveLength(1);
    expect(remindersOf(byLink)).toHaveLength(0);
    expect(remindersOf(byClinic)).toHaveLength(0);
  });

  it('a reminder the relay keeps refusing shows in the back office, and is sent once when it recovers', async () => {
    const id = await book(clinicDay(50), TEN);
    const due = at(clinicDay(49), 600);
    vi.setSystemTime(new Date(due.getTime() - 60_000));
    await freshAdmin();
    smtp.refuseNext(3);
    moveClockTo(due);
    const failures = async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/mail/failures',
        headers: bearer(admin.token),
      });
      expect(response.statusCode).toBe(200);
      return (response.json() as { failures: Array<{ kind: string; attempts: number }> }).failures;
    };
    await vi.waitFor(async () => {
      expect((await pending(id))[0]?.last_error).toBeTruthy();
    });
    expect((await failures()).map((f) => f.kind)).toContain('booking-reminder');
    // Retried from the back office twice (both refused), then on schedule.
    for (let round = 0; round < 2; round += 1) {
      const [failure] = (await t.db
        .selectFrom('mail_queue')
        .select('id')
        .where('booking_id', '=', id)
        .execute()) as [{ id: string }];
      const retry = await t.app.inject({
        method: 'POST',
        url: `/api/mail/failures/${failure.id}/retry`,
        headers: bearer(admin.token),
      });
      expect(retry.statusCode).toBe(204);
      await vi.waitFor(async () => {
        const [row] = await pending(id);
        expect(row?.last_error).toBeTruthy();
        expect(row?.attempts).toBe(1);
      });
    }
    moveClockTo(new Date(due.getTime() + 31_000));
    await smtp.waitForMail((m) => isReminder(m) && reminderBooking(m)?.[0] === id, 5_000);
    await pause(300);
    expect(remindersOf(id)).toHaveLength(1);
    expect(await pending(id)).toHaveLength(0);
    expect((await failures()).map((f) => f.kind)).not.toContain('booking-reminder');
  });

  it('a failing reminder of a visit cancelled meanwhile is withdrawn and leaves the failure list', async () => {
    const id = await book(clinicDay(60), TEN);
    vi.setSystemTime(new Date(at(clinicDay(59), 600).getTime() - 60_000));
    await freshAdmin();
    smtp.refuseNext(1);
    moveClockTo(at(clinicDay(59), 600));
    await vi.waitFor(async () => {
      expect((await pending(id))[0]?.last_error).toBeTruthy();
    });
    const k = await t.app.inject({
      method: 'POST',
      url: `/api/booking/${id}/cancel`,
      headers: bearer(admin.token),
      payload: { reason: 'Dentist ill' },
    });
    expect(k.statusCode, k.body).toBe(200);
    expect(await pending(id)).toHaveLength(0);
    moveClockTo(at(clinicDay(59), 700));
    await pause(300);
    expect(remindersOf(id)).toHaveLength(0);
  });
});

import {
  CANCELLATION_CLOSED,
  cancellationPolicy,
  formatMediumDate,
  type IsoDate,
  slotsBetween,
} from '@doctors-portal/contract';
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
import { reminderMoment } from './reminders.js';

/**
 * Reminders (issue 16, item 1): each live booking's reminder is sent once, at the clinic's
 * reminder lead before its start on the clinic's wall clock; a cancelled booking's never, a
 * moved one's at its new moment only; a refused one is retried with backoff. The clock is moved
 * (Date faked, the booking clock following it) and the queue woken, as its poll would.
 */

const [TEN, , ELEVEN] = slotsBetween('10:00 AM', '11:30 AM', 30) as [string, string, string];
const FIVE_PM = slotsBetween('5:00 PM', '5:30 PM', 30)[0] as string;
const MINUTE = 60_000;

const isReminder = (mail: ReceivedMail) => mail.subject?.startsWith('Reminder:') ?? false;
/** The booking a reminder tells of, read from its Message-ID ('<booking-{id}-reminder-{n}@…>'). */
const reminderBooking = (mail: ReceivedMail) =>
  /booking-(.+)-reminder-\d+@/.exec(mail.messageId ?? '')?.[1];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the clinic's clock (and Date) at `at`, and wakes the queue as its poll would. */
function moveClockTo(t: TestApp, at: Date) {
  vi.setSystemTime(at);
  t.app.mailQueue.wake();
}

function suite(timeZone: string, body: (context: () => Context) => void) {
  describe(`reminders in ${timeZone} (${engine})`, () => {
    const context = {} as Context;
    beforeAll(async () => {
      context.smtp = await startTestSmtpServer();
      context.t = await buildTestApp({
        env: { SMTP_URL: context.smtp.url, MAIL_RATE: '1000', CLINIC_TIMEZONE: timeZone },
      });
      vi.useFakeTimers({ toFake: ['Date'], now: TEST_NOW });
      context.patients = [];
    });
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['Date'], now: TEST_NOW });
      // The booking rules read the same (moved) clock as the queue.
      vi.spyOn(clock, 'now').mockImplementation(() => new Date());
      context.smtp.clear();
    });
    afterEach(() => {
      vi.useRealTimers();
    });
    afterAll(async () => {
      vi.useRealTimers();
      await context.t?.close();
      await context.smtp?.close();
    });
    body(() => context);
  });
}

interface Context {
  smtp: TestSmtpServer;
  t: TestApp;
  /** Patients to book with, one per booking (a patient has one visit of a treatment a day). */
  patients: Patient[];
}

/** Books through the API as a new patient of the test's; answers the booking's id. */
async function book(c: Context, date: IsoDate, slot: string) {
  const patient = await signedUpPatient(c.t.app, `Patient ${c.patients.length + 1}`);
  c.patients.push(patient);
  const response = await c.t.app.inject({
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
  // The patient's mail is in before the test moves the clock: a connection open across a jump of
  // the clock would time out (nodemailer reads Date), and a refusal meant for a reminder spent.
  for (const subject of ['Verify', 'Appointment confirmed']) {
    await c.smtp.waitForMail(
      (m) => m.envelope.to.includes(patient.email) && (m.subject?.startsWith(subject) ?? false),
    );
  }
  return id;
}

/** Who booked each booking. */
const owners = new Map<string, Patient>();
const ownerOf = (id: string) => owners.get(id) as Patient;

const reminders = (c: Context) => c.smtp.messages.filter(isReminder);

/** Waits for the reminder of `bookingId`, then lets the queue settle. */
async function reminderOf(c: Context, bookingId: string) {
  const mail = await c.smtp.waitForMail(
    (m) => isReminder(m) && reminderBooking(m) === bookingId,
    5_000,
  );
  await pause(100);
  return mail;
}

/** Wakes the queue and gives it time to send anything due: nothing new must arrive. */
async function nothingMoreAfter(c: Context, count: number) {
  c.t.app.mailQueue.wake();
  await pause(300);
  expect(reminders(c).map(reminderBooking)).toHaveLength(count);
}

const pendingReminders = (c: Context) =>
  c.t.db
    .selectFrom('mail_queue')
    .select(['booking_id', 'send_after', 'attempts', 'last_error'])
    .where('kind', '=', 'booking-reminder')
    .execute();

suite('America/New_York', (context) => {
  it('sends one reminder per live booking at its moment: none for the cancelled, the moved one at its new moment only', async () => {
    const c = context();
    const zone = c.t.config.clinic.timeZone;
    const a = await book(c, clinicDay(10), TEN);
    const cancelled = await book(c, clinicDay(10), ELEVEN);
    const moved = await book(c, clinicDay(11), TEN);
    const d = await book(c, clinicDay(12), TEN);

    const cancel = await c.t.app.inject({
      method: 'DELETE',
      url: `/api/booking/${cancelled}`,
      headers: bearer(ownerOf(cancelled).token),
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const move = await c.t.app.inject({
      method: 'POST',
      url: `/api/booking/${moved}/reschedule`,
      headers: bearer(ownerOf(moved).token),
      payload: { date: formatMediumDate(clinicDay(13)), slot: ELEVEN },
    });
    expect(move.statusCode, move.body).toBe(200);

    // A 10:00 visit is reminded at 10:00 the day before (the default lead, 24 hours).
    const at = (day: number, minutes: number) => clinicInstant(zone, clinicDay(day), minutes);
    const expected = [
      { id: a, due: at(9, 600) },
      { id: d, due: at(11, 600) },
      { id: moved, due: at(12, 660) },
    ];
    const pending = await pendingReminders(c);
    expect(
      pending
        .map((row) => ({ id: row.booking_id, due: row.send_after }))
        .sort((x, y) => `${x.due}`.localeCompare(`${y.due}`)),
    ).toEqual(expected.map(({ id, due }) => ({ id, due: due.toISOString() })));

    // The confirmations go out now; no reminder before its moment.
    await nothingMoreAfter(c, 0);
    let sent = 0;
    for (const { id, due } of expected) {
      moveClockTo(c.t, new Date(due.getTime() - MINUTE));
      await nothingMoreAfter(c, sent);
      moveClockTo(c.t, due);
      const mail = await reminderOf(c, id);
      sent += 1;
      expect(reminders(c)).toHaveLength(sent);
      expect(mail.envelope.to).toEqual([ownerOf(id).email]);
    }
    // The moved booking's old moment (day 10, 10:00) has passed: no second reminder for it.
    moveClockTo(c.t, at(30, 0));
    await nothingMoreAfter(c, 3);
    expect(reminders(c).map(reminderBooking).sort()).toEqual([a, d, moved].sort());
    expect(await pendingReminders(c)).toEqual([]);
  });

  it('reads well: the visit in clinic time, saying so, the policy sentence, as plain text too', async () => {
    const c = context();
    const id = await book(c, clinicDay(20), TEN);
    moveClockTo(c.t, clinicInstant(c.t.config.clinic.timeZone, clinicDay(19), 600));
    const mail = await reminderOf(c, id);
    const date = formatMediumDate(clinicDay(20));
    expect(mail.subject).toBe(
      `Reminder: Teeth Cleaning on ${date} at 10:00 AM (clinic time, America/New_York)`,
    );
    expect(mail.text).toContain(
      `A reminder of your Teeth Cleaning appointment at ${c.t.config.clinic.name} on ${date} at 10:00 AM (clinic time, America/New_York).`,
    );
    expect(mail.text).toContain(`Time: ${TEN}`);
    expect(mail.text).toContain('You can cancel free of charge');
    expect(mail.text).toContain(c.t.config.clinic.phone);
    expect(mail.html).toContain('clinic time, America/New_York');
  });

  it('withdraws, unsent, the reminder of a paid visit kept on record once its patient removed their account', async () => {
    const c = context();
    const id = await book(c, clinicDay(50), TEN);
    await c.t.db
      .updateTable('booking')
      .set({ paid_at: new Date().toISOString(), transaction_id: 'pi_kept_after_removal' })
      .where('id', '=', id)
      .execute();
    const removal = await c.t.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: bearer(ownerOf(id).token),
      payload: { password: 'plaque-free-smile-42' },
    });
    expect(removal.statusCode, removal.body).toBeLessThan(300);
    // The queue keeps no name or address of a patient who left.
    expect(await pendingReminders(c)).toEqual([]);

    moveClockTo(c.t, clinicInstant(c.t.config.clinic.timeZone, clinicDay(49), 600));
    await nothingMoreAfter(c, 0);
    expect(await pendingReminders(c)).toEqual([]);
  });

  it('gives none to a booking made after its reminder moment', async () => {
    const c = context();
    // Noon now; tomorrow's 10:00 visit would have been reminded at 10:00 today.
    const late = await book(c, clinicDay(1), TEN);
    const rows = await pendingReminders(c);
    expect(rows.map((row) => row.booking_id)).not.toContain(late);
    moveClockTo(c.t, clinicInstant(c.t.config.clinic.timeZone, clinicDay(1), 600));
    await nothingMoreAfter(c, 0);
  });

  it('sent once the cancellation notice has begun, says the visit can no longer be cancelled online', async () => {
    const c = context();
    const id = await book(c, clinicDay(47), TEN);
    // A minute after its moment, 24 hours before the visit: inside the 24-hour notice.
    moveClockTo(c.t, clinicInstant(c.t.config.clinic.timeZone, clinicDay(46), 601));
    const mail = await reminderOf(c, id);
    expect(mail.text).toContain(cancellationPolicy(24, c.t.config.clinic.phone));
    expect(mail.text).toContain(CANCELLATION_CLOSED);
    // The links stay: Cancel leads to the policy's answer, and the number to call.
    expect(mail.text).toMatch(/Cancel: http/);
  });

  it('drops, unsent, a reminder the queue reaches only after its visit began (the portal was down)', async () => {
    const c = context();
    const id = await book(c, clinicDay(45), TEN);
    expect((await pendingReminders(c)).map((row) => row.booking_id)).toContain(id);
    // First woken a minute into the visit, as after an outage or a long refusal by the relay.
    moveClockTo(c.t, clinicInstant(c.t.config.clinic.timeZone, clinicDay(45), 601));
    await nothingMoreAfter(c, 0);
    expect(await pendingReminders(c)).toEqual([]);
  });

  it('retries a reminder the relay refused, after 30 s and then 60 s, and sends it once', async () => {
    const c = context();
    const id = await book(c, clinicDay(40), TEN);
    const due = clinicInstant(c.t.config.clinic.timeZone, clinicDay(39), 600);
    c.smtp.refuseNext(2);
    moveClockTo(c.t, due);
    /** The reminder's row once attempt `attempts` failed and set its next attempt at `next`. */
    const failed = async (attempts: number, next: Date) => {
      // Date stands still here: the deadline is read from the monotonic clock.
      const deadline = performance.now() + 5_000;
      for (;;) {
        const [row] = await pendingReminders(c);
        if (row?.attempts === attempts && row.send_after === next.toISOString()) return row;
        if (performance.now() > deadline) {
          throw new Error(`no failed attempt ${attempts}: ${JSON.stringify(row)}`);
        }
        await pause(20);
      }
    };
    // 30 s after the first failure, then 60 s after the second.
    const first = await failed(1, new Date(due.getTime() + 30_000));
    expect(first.last_error).toContain('Try again later');

    moveClockTo(c.t, new Date(due.getTime() + 29_000));
    await pause(200);
    expect((await pendingReminders(c))[0]?.attempts).toBe(1);

    moveClockTo(c.t, new Date(due.getTime() + 30_000));
    await failed(2, new Date(due.getTime() + 90_000));
    expect(reminders(c)).toEqual([]);

    moveClockTo(c.t, new Date(due.getTime() + 90_000));
    await reminderOf(c, id);
    await nothingMoreAfter(c, 1);
    expect(await pendingReminders(c)).toEqual([]);
  });

  it('moves the reminders waiting when the clinic changes its lead; one whose new moment has passed goes at once', async () => {
    const c = context();
    const zone = c.t.config.clinic.timeZone;
    const at = (day: number, minutes: number) =>
      clinicInstant(zone, clinicDay(day), minutes).toISOString();
    const admin = await signedUpAdmin(c.t);
    const leadOf = (reminderLeadHours: number) =>
      c.t.app.inject({
        method: 'PUT',
        url: '/api/clinic/rules',
        headers: bearer(admin.token),
        payload: {
          horizonDays: 180,
          minNoticeMinutes: 0,
          maxUnpaidBookings: 5,
          cancellationNoticeHours: 24,
          reminderLeadHours,
        },
      });
    const later = await book(c, clinicDay(60), TEN);
    // Noon now: reminded at 10:00 tomorrow with 24 hours, at 10:00 today (gone) with 48.
    const soon = await book(c, clinicDay(2), TEN);
    const dueOf = async (id: string) =>
      (await pendingReminders(c)).find((row) => row.booking_id === id)?.send_after;
    expect(await dueOf(later)).toBe(at(59, 600));
    expect(await dueOf(soon)).toBe(at(1, 600));
    try {
      expect((await leadOf(48)).statusCode).toBe(200);
      expect(await dueOf(later)).toBe(at(58, 600));
      c.t.app.mailQueue.wake();
      const mail = await reminderOf(c, soon);
      expect(mail.envelope.to).toEqual([ownerOf(soon).email]);
      expect(await dueOf(soon)).toBeUndefined();
    } finally {
      expect((await leadOf(24)).statusCode).toBe(200);
    }
    expect(await dueOf(later)).toBe(at(59, 600));
    await nothingMoreAfter(c, 1);
  });
});

/**
 * Daylight-saving days in London (2031: clocks go forward on Mar 30, back on Oct 26): a visit on
 * the day of the change and on the day after is reminded at its own local hour the day before.
 */
suite('Europe/London', (context) => {
  it('computes the reminder at the same wall-clock hour across the changes', () => {
    const zone = 'Europe/London';
    const at = (date: string, slot: string) =>
      reminderMoment(zone, date as IsoDate, slot, 24)?.toISOString();
    // Spring: Mar 29 is GMT (UTC+0), Mar 30 from 01:00 BST (UTC+1).
    expect(at('2031-03-30', TEN)).toBe('2031-03-29T10:00:00.000Z');
    expect(at('2031-03-30', FIVE_PM)).toBe('2031-03-29T17:00:00.000Z');
    expect(at('2031-03-31', TEN)).toBe('2031-03-30T09:00:00.000Z');
    expect(at('2031-03-31', FIVE_PM)).toBe('2031-03-30T16:00:00.000Z');
    // Autumn: Oct 25 is BST, Oct 26 from 02:00 GMT.
    expect(at('2031-10-26', TEN)).toBe('2031-10-25T09:00:00.000Z');
    expect(at('2031-10-26', FIVE_PM)).toBe('2031-10-25T16:00:00.000Z');
    expect(at('2031-10-27', TEN)).toBe('2031-10-26T10:00:00.000Z');
    expect(at('2031-10-27', FIVE_PM)).toBe('2031-10-26T17:00:00.000Z');
  });

  it('sends morning and afternoon reminders at the right local hour on and after each change', async () => {
    const c = context();
    const visits: Array<[string, string, string]> = [
      ['2031-03-30', TEN, '2031-03-29T10:00:00.000Z'],
      ['2031-03-30', FIVE_PM, '2031-03-29T17:00:00.000Z'],
      ['2031-03-31', TEN, '2031-03-30T09:00:00.000Z'],
      ['2031-03-31', FIVE_PM, '2031-03-30T16:00:00.000Z'],
      ['2031-10-26', TEN, '2031-10-25T09:00:00.000Z'],
      ['2031-10-26', FIVE_PM, '2031-10-25T16:00:00.000Z'],
      ['2031-10-27', TEN, '2031-10-26T10:00:00.000Z'],
      ['2031-10-27', FIVE_PM, '2031-10-26T17:00:00.000Z'],
    ];
    const booked = [];
    for (const [date, slot, due] of visits) {
      booked.push({ id: await book(c, date as IsoDate, slot), slot, due: new Date(due) });
    }
    await nothingMoreAfter(c, 0);
    let sent = 0;
    for (const { id, slot, due } of booked) {
      moveClockTo(c.t, new Date(due.getTime() - MINUTE));
      await nothingMoreAfter(c, sent);
      moveClockTo(c.t, due);
      const mail = await reminderOf(c, id);
      sent += 1;
      expect(mail.subject).toContain(`${slot.split(' - ')[0]} (clinic time, Europe/London)`);
    }
    expect(reminders(c)).toHaveLength(visits.length);
  });
});

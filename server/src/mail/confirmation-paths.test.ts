import { formatMediumDate, type IsoDate, slotsBetween } from '@doctors-portal/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { clinicDay, TEST_NOW } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { type Patient, signedUpPatient } from '../../test/payment-fixtures.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { clock } from '../bookings/clock.js';

const [TEN, , ELEVEN] = slotsBetween('10:00 AM', '11:30 AM', 30) as [string, string, string];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A booking's confirmation the relay refused at first, retried after the patient changed the
 * booking: the retry must not land after the news of the change and tell of a time that no
 * longer holds. The clock is moved (Date faked, the booking clock following it) past the retry's
 * backoff and the queue woken, as its poll would.
 */
describe(`a confirmation retried after its booking changed (${engine})`, () => {
  let smtp: TestSmtpServer;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await buildTestApp({ env: { SMTP_URL: smtp.url, MAIL_RATE: '1000' } });
  });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: TEST_NOW });
    vi.spyOn(clock, 'now').mockImplementation(() => new Date());
  });
  afterEach(() => vi.useRealTimers());
  afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
    await smtp?.close();
  });

  const subjectsTo = (patient: Patient) =>
    smtp.messages
      .filter((mail) => mail.envelope.to.includes(patient.email))
      .map((mail) => mail.subject ?? '');
  const queuedConfirmations = () =>
    t.db
      .selectFrom('mail_queue')
      .select(['last_error'])
      .where('kind', '=', 'booking-confirmation')
      .execute();

  /** A new patient's booking whose confirmation the relay refused once (retried in 30 s). */
  async function bookRefused(date: IsoDate) {
    const patient = await signedUpPatient(t.app, `Patient ${smtp.messages.length}`);
    await smtp.waitForMail(
      (m) => m.envelope.to.includes(patient.email) && (m.subject?.startsWith('Verify') ?? false),
    );
    smtp.refuseNext(1);
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(patient.token),
      payload: {
        treatmentId: 'teeth-cleaning',
        date: formatMediumDate(date),
        slot: TEN,
        phone: '+1 555 010 2030',
        age: 34,
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    await vi.waitFor(async () => {
      expect((await queuedConfirmations()).some((row) => row.last_error)).toBe(true);
    });
    return { patient, id: (booked.json() as { booking: { _id: string } }).booking._id };
  }

  /** Past the refused confirmation's backoff: the queue takes it again, and settles. */
  async function retryDue() {
    vi.setSystemTime(new Date(Date.now() + 31_000));
    t.app.mailQueue.wake();
    await vi.waitFor(async () => expect(await queuedConfirmations()).toHaveLength(0));
    await pause(100);
  }

  it('is dropped once the patient moved the booking: their last mail tells of the new time', async () => {
    const { patient, id } = await bookRefused(clinicDay(20));
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/booking/${id}/reschedule`,
      headers: bearer(patient.token),
      payload: { date: formatMediumDate(clinicDay(21)), slot: ELEVEN },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await smtp.waitForMail(
      (m) => m.envelope.to.includes(patient.email) && (m.subject?.includes('moved') ?? false),
    );
    await retryDue();
    const subjects = subjectsTo(patient);
    expect(subjects.filter((subject) => subject.includes('confirmed'))).toEqual([]);
    expect(subjects.at(-1)).toContain('moved');
  });

  it('is dropped once the patient cancelled the booking: the cancellation is their last mail', async () => {
    const { patient, id } = await bookRefused(clinicDay(22));
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `/api/booking/${id}`,
      headers: bearer(patient.token),
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await vi.waitFor(() =>
      expect(subjectsTo(patient).some((s) => s.includes('cancelled'))).toBe(true),
    );
    await retryDue();
    const subjects = subjectsTo(patient);
    expect(subjects.filter((subject) => subject.includes('confirmed'))).toEqual([]);
    expect(subjects.at(-1)).toContain('cancelled');
  });

  it('goes, once, when nothing changed meanwhile', async () => {
    const { patient } = await bookRefused(clinicDay(23));
    await retryDue();
    expect(subjectsTo(patient).filter((subject) => subject.includes('confirmed'))).toHaveLength(1);
  });
});

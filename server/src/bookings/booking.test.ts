import { type Booking, type IsoDate, messages, slotsBetween } from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accessToken, bearer, seedPatients, signUp } from '../../test/accounts.js';
import { clinicDay, clinicTime, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { clock } from './clock.js';

interface Patient {
  email: string;
  name: string;
  token: string;
}

/** A patient signed up and signed in through the API, as the web app does it. */
async function signedUpPatient(app: FastifyInstance, name: string): Promise<Patient> {
  const account = await signUp(app, { name });
  return { email: account.email, name, token: await accessToken(app, account) };
}

/**
 * Many patients at once, written straight into the auth tables with a live session each and an
 * access token minted for it: signing up 200 people through the API would only measure
 * password hashing (the sign-up path has its own tests).
 */
async function crowdOfPatients(t: TestApp, count: number): Promise<Patient[]> {
  const people = await seedPatients(t.db, engine, count);
  return Promise.all(
    people.map(async (person) => ({
      email: person.email,
      name: person.name,
      token: (await t.app.accessTokens.issue(person)).token,
    })),
  );
}

/** The booking modal's request, as the web app sends it. */
function bookingRequest(patient: Patient, fields: Record<string, unknown> = {}) {
  return {
    treatmentId: 'teeth-cleaning',
    treatment: 'Teeth Cleaning',
    date: mediumDay(61),
    slot: '10:00 AM - 10:30 AM',
    price: 80,
    patientMail: patient.email,
    patientName: patient.name,
    phone: '+1 555 010 2030',
    age: 34,
    ...fields,
  };
}

function book(app: FastifyInstance, patient: Patient, fields: Record<string, unknown> = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/booking',
    headers: bearer(patient.token),
    payload: bookingRequest(patient, fields),
  });
}

async function rowsOf(t: TestApp, where: { email?: string; date?: IsoDate }) {
  let query = t.db.selectFrom('booking').selectAll();
  if (where.email) query = query.where('patient_email', '=', where.email);
  if (where.date) query = query.where('date', '=', where.date);
  return query.execute();
}

describe(`booking a slot (${engine})`, () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let jane: Patient;
  let omar: Patient;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await buildTestApp({ env: { SMTP_URL: smtp.url } });
    [jane, omar] = await Promise.all([
      signedUpPatient(t.app, 'Jane Doe'),
      signedUpPatient(t.app, 'Omar Haddad'),
    ]);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('answers 201 with the stored booking, unpaid', async () => {
    const response = await book(t.app, jane, { date: mediumDay(61) });
    expect(response.statusCode).toBe(201);
    const { success, booking } = response.json() as { success: boolean; booking: Booking };
    expect(success).toBe(true);
    expect(booking).toEqual({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      patientName: 'Jane Doe',
      patientMail: jane.email,
      date: mediumDay(61),
      slot: '10:00 AM - 10:30 AM',
      treatment: 'Teeth Cleaning',
      treatmentId: 'teeth-cleaning',
      price: 80,
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
    const [row] = await rowsOf(t, { email: jane.email, date: clinicDay(61) });
    expect(row).toMatchObject({
      id: booking._id,
      date: clinicDay(61),
      price_cents: 8000,
      patient_id: expect.any(String),
      paid_at: null,
    });
    expect(new Date(row?.created_at ?? '').toISOString()).toBe(row?.created_at);
  });

  it('stores the server’s truth, whatever the request claims', async () => {
    const response = await book(t.app, jane, {
      date: mediumDay(62),
      treatment: 'Free Whitening',
      price: 0.01,
      patientMail: omar.email,
      patientName: 'Somebody Else',
      phone: '   (555) 010-7788  ',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().booking).toMatchObject({
      treatment: 'Teeth Cleaning',
      price: 80,
      patientMail: jane.email,
      patientName: 'Jane Doe',
      phone: '(555) 010-7788',
    });
    expect(await rowsOf(t, { date: clinicDay(62) })).toEqual([
      expect.objectContaining({
        treatment_name: 'Teeth Cleaning',
        price_cents: 8000,
        patient_email: jane.email,
        patient_name: 'Jane Doe',
        phone: '(555) 010-7788',
      }),
    ]);
  });

  describe('refuses with a clear message and stores nothing', () => {
    let refused: Patient;
    beforeAll(async () => {
      refused = await signedUpPatient(t.app, 'Rita Refused');
    });

    it.each([
      ['a past date', { date: 'Jan 5, 2022' }, 'You cannot book a date in the past'],
      [
        'an impossible date',
        { date: 'Feb 30, 2031' },
        "Provide a real date in the form 'Jan 5, 2022'",
      ],
      [
        'a date in another format',
        { date: clinicDay(63) },
        "Provide a real date in the form 'Jan 5, 2022'",
      ],
      [
        'an unknown treatment',
        { treatmentId: 'root-canal' },
        'We do not offer that treatment. Please pick one from the list.',
      ],
      ['no treatment', { treatmentId: undefined }, 'Treatment is Required'],
      [
        'a slot the clinic does not offer',
        { slot: '9:00 AM - 9:30 AM' },
        'That slot is not offered for this treatment',
      ],
      [
        'another treatment’s slot',
        { slot: '2:00 PM - 3:00 PM' },
        'That slot is not offered for this treatment',
      ],
      ['no slot', { slot: undefined }, messages.slotRequired],
      ['no phone', { phone: undefined }, messages.phoneRequired],
      ['a blank phone', { phone: '   ' }, messages.phoneRequired],
      ['a phone that is no number', { phone: 'call me maybe' }, messages.phoneInvalid],
      ['no age', { age: undefined }, messages.ageRequired],
      ['a blank age', { age: '' }, messages.ageRequired],
      ['a null age', { age: null }, messages.ageRequired],
      ['age -1', { age: -1 }, messages.ageInvalid],
      ['age 200', { age: 200 }, messages.ageInvalid],
      ['age 3.5', { age: 3.5 }, messages.ageInvalid],
    ])('%s', async (_situation, fields, message) => {
      const response = await book(t.app, refused, { date: mediumDay(63), ...fields });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
      expect(await rowsOf(t, { email: refused.email })).toEqual([]);
    });

    it('without a live access token (401)', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/booking',
        payload: bookingRequest(refused, { date: mediumDay(63) }),
      });
      expect(response.statusCode).toBe(401);
      expect(await rowsOf(t, { date: clinicDay(63) })).toEqual([]);
    });
  });

  describe('conflicts (409)', () => {
    it('a second booking of the same treatment on the same date: the spec’s conflict', async () => {
      expect((await book(t.app, jane, { date: mediumDay(64) })).statusCode).toBe(201);

      const again = await book(t.app, jane, { date: mediumDay(64), slot: '11:00 AM - 11:30 AM' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({
        success: false,
        reason: 'patient',
        message: `You already have an Appointment On: ${mediumDay(64)} At 10:00 AM - 10:30 AM`,
        booking: { date: mediumDay(64), slot: '10:00 AM - 10:30 AM', treatment: 'Teeth Cleaning' },
      });
      // The very same slot again is the same conflict, not "someone else took it".
      const same = await book(t.app, jane, { date: mediumDay(64) });
      expect(same.json()).toMatchObject({ reason: 'patient' });
      expect(await rowsOf(t, { email: jane.email, date: clinicDay(64) })).toHaveLength(1);
    });

    it('other treatments the same day, and the same treatment another day, are fine', async () => {
      expect((await book(t.app, omar, { date: mediumDay(65) })).statusCode).toBe(201);
      const other = { treatmentId: 'cavity-filling', slot: '11:00 AM - 12:00 PM' };
      expect((await book(t.app, omar, { date: mediumDay(65), ...other })).statusCode).toBe(201);
      expect((await book(t.app, omar, { date: mediumDay(66) })).statusCode).toBe(201);
    });

    it('a slot someone else holds: its own message', async () => {
      expect((await book(t.app, jane, { date: mediumDay(67) })).statusCode).toBe(201);
      const late = await book(t.app, omar, { date: mediumDay(67) });
      expect(late.statusCode).toBe(409);
      expect(late.json()).toEqual({
        success: false,
        reason: 'slot',
        message: 'Sorry, someone has just booked this slot. Please pick another one.',
      });
      expect(await rowsOf(t, { date: clinicDay(67) })).toHaveLength(1);
    });
  });

  describe("today, in the clinic's time zone (America/New_York)", () => {
    it('a slot that has started cannot be booked; a later one can', async () => {
      // 2:10 PM in New York (6:10 PM in UTC).
      vi.spyOn(clock, 'now').mockReturnValue(clinicTime(clinicDay(90), '14:10'));
      const whitening = { treatmentId: 'teeth-whitening', date: mediumDay(90) };
      const started = await book(t.app, omar, { ...whitening, slot: '2:00 PM - 3:00 PM' });
      expect(started.statusCode).toBe(400);
      expect(started.json().message).toBe(
        'That slot has already started today. Please pick a later one.',
      );
      const later = await book(t.app, omar, { ...whitening, slot: '3:00 PM - 4:00 PM' });
      expect(later.statusCode).toBe(201);
    });

    it('yesterday is the past even where it is already today in UTC', async () => {
      // 9:00 PM in New York on the next day, when it is already the day after in UTC.
      const evening = clinicTime(clinicDay(91), '21:00');
      expect(evening.toISOString().slice(0, 10)).toBe(clinicDay(92));
      vi.spyOn(clock, 'now').mockReturnValue(evening);
      const response = await book(t.app, omar, { date: mediumDay(90) });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('You cannot book a date in the past');
    });
  });

  describe('races: the database decides', () => {
    it('200 patients booking one slot at once: exactly one gets it', async () => {
      const crowd = await crowdOfPatients(t, 200);
      const responses = await Promise.all(
        crowd.map((patient) => book(t.app, patient, { date: mediumDay(120) })),
      );
      const codes = responses.map((response) => response.statusCode);
      expect(codes.filter((code) => code === 201)).toHaveLength(1);
      expect(codes.filter((code) => code === 409)).toHaveLength(199);
      for (const response of responses.filter((r) => r.statusCode === 409)) {
        expect(response.json()).toMatchObject({ success: false, reason: 'slot' });
      }
      const rows = await rowsOf(t, { date: clinicDay(120) });
      expect(rows).toHaveLength(1);
      const winner = responses.find((response) => response.statusCode === 201);
      expect(rows[0]?.id).toBe(winner?.json().booking._id);
    }, 60_000);

    it('one patient booking 50 slots of one treatment on one date at once: exactly one holds', async () => {
      // A treatment with 50 quarter-hour slots, so that every request asks for a different one.
      const slots = slotsBetween('10:00 AM', '10:30 PM', 15);
      expect(slots).toHaveLength(50);
      await t.db
        .insertInto('treatment')
        .values({
          id: 'quick-check',
          name: 'Quick Check',
          price_cents: 2500,
          slots: JSON.stringify(slots),
          sort_order: 99,
        })
        .execute();
      const [patient] = await crowdOfPatients(t, 1);
      if (!patient) throw new Error('no patient');

      const responses = await Promise.all(
        slots.map((slot) =>
          book(t.app, patient, { treatmentId: 'quick-check', date: mediumDay(121), slot }),
        ),
      );
      const winners = responses.filter((response) => response.statusCode === 201);
      expect(winners).toHaveLength(1);
      const held = (winners[0]?.json() as { booking: Booking } | undefined)?.booking ?? {
        slot: '',
      };
      const losers = responses.filter((response) => response.statusCode === 409);
      expect(losers).toHaveLength(49);
      for (const response of losers) {
        expect(response.json()).toEqual({
          success: false,
          reason: 'patient',
          message: messages.bookingConflict(mediumDay(121), held.slot),
          booking: { date: mediumDay(121), slot: held.slot, treatment: 'Quick Check' },
        });
      }
      expect(await rowsOf(t, { email: patient.email })).toHaveLength(1);
    }, 60_000);
  });

  describe('the confirmation mail', () => {
    it('reaches the patient with the appointment and an .ics calendar part', async () => {
      const response = await book(t.app, omar, {
        treatmentId: 'fluoride-treatment',
        date: mediumDay(152),
        slot: '11:30 AM - 12:00 PM',
      });
      expect(response.statusCode).toBe(201);

      const mail = await smtp.waitForMail(
        (received) =>
          received.envelope.to.includes(omar.email) &&
          (received.subject ?? '').includes(mediumDay(152)),
      );
      expect(mail.subject).toBe(
        `Appointment confirmed: Fluoride Treatment on ${mediumDay(152)} at 11:30 AM - 12:00 PM`,
      );
      expect(mail.text).toContain('Hello Omar Haddad,');
      expect(mail.text).toContain('Price: $45');
      expect(mail.text).toContain(`${t.config.publicUrl}/dashboard`);
      const ics = mail.attachments.find((attachment) => attachment.filename?.endsWith('.ics'));
      const calendar = ics?.content.toString('utf8') ?? '';
      const day = clinicDay(152).replaceAll('-', '');
      expect(calendar).toContain(`\r\nDTSTART;TZID=America/New_York:${day}T113000\r\n`);
      expect(calendar).toContain(`\r\nDTEND;TZID=America/New_York:${day}T120000\r\n`);
      expect(calendar).toContain(`UID:booking-${response.json().booking._id}@`);
    });

    it('failing to send it does not fail the booking; it is logged and kept for a retry', async () => {
      // An SMTP server that was there and is gone: the connection is refused.
      const gone = await startTestSmtpServer();
      await gone.close();
      const broken = await buildTestApp({ env: { SMTP_URL: gone.url } });
      try {
        const patient = (await crowdOfPatients(broken, 1))[0] as Patient;
        const response = await book(broken.app, patient, { date: mediumDay(153) });
        expect(response.statusCode).toBe(201);
        await vi.waitFor(
          () =>
            expect(broken.logs.map((log) => log.msg)).toContain(
              'could not send a booking-confirmation message; it will be tried again',
            ),
          { timeout: 10_000 },
        );
        // (Its reminder waits in the queue too, due the day before the visit.)
        const queued = await broken.db
          .selectFrom('mail_queue')
          .selectAll()
          .where('kind', '=', 'booking-confirmation')
          .execute();
        expect(queued).toMatchObject([{ kind: 'booking-confirmation', attempts: 1 }]);
        expect(JSON.parse(String(queued[0]?.payload))).toMatchObject({
          to: patient.email,
          booking: { isoDate: clinicDay(153) },
        });
      } finally {
        await broken.close();
      }
    });
  });
});

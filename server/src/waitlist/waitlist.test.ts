import { waitlistMessages } from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, seedPatients } from '../../test/accounts.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { type Patient, signedUpPatient } from '../../test/payment-fixtures.js';
import {
  type ReceivedMail,
  startTestSmtpServer,
  type TestSmtpServer,
} from '../../test/smtp-server.js';
import { bookingErrors } from '../bookings/errors.js';
import { insertBooking, newBookingRow } from '../bookings/repository.js';
import { forgetClinicCalendar } from '../clinic/calendar.js';
import type { Booking } from '../db/schema.js';
import { forgetCachedTreatments } from '../treatments/repository.js';
import { insertEntry, takeWaitingFor } from './repository.js';
import { WAITLIST_MAX_ENTRIES } from './rules.js';

/**
 * The waitlist (issue 16, item 5): joining a treatment's date with no free slot, the patient's
 * own entries, and a freed slot mailed to the first three waiting, the first to book winning.
 */

const TEN = '10:00 AM - 10:30 AM';
const ELEVEN = '11:00 AM - 11:30 AM';
/** A treatment of two slots, so that a day is full with two bookings. */
const SCALING = { id: 'waitlist-scaling', name: 'Deep Scaling', priceCents: 6000 };
/** The same, with a dentist of its own (added by the test that needs one). */
const CROWN = { id: 'waitlist-crown', name: 'Crown Fitting', priceCents: 9000 };

const api = (
  app: FastifyInstance,
  token: string | null,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
) => app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload && { payload }) });

const join = (
  app: FastifyInstance,
  token: string | null,
  day: number | string,
  treatmentId = SCALING.id,
) =>
  api(app, token, 'POST', '/api/waitlist', {
    treatmentId,
    date: typeof day === 'number' ? mediumDay(day) : day,
  });

/** The suite's patients, signed up before its tests run. */
type SixPatients = [Patient, Patient, Patient, Patient, Patient, Patient];

const isSlotFreeMail = (to: string) => (mail: ReceivedMail) =>
  mail.envelope.to.includes(to) &&
  (mail.subject ?? '').startsWith('A slot for Deep Scaling is free');

describe(`the waitlist (${engine})`, () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let patients: Patient[];

  /** A live booking of Deep Scaling, written through the repository. */
  async function held(patient: Patient, day: number, slot: string): Promise<Booking> {
    const booking = newBookingRow({
      treatment_id: SCALING.id,
      treatment_name: SCALING.name,
      price_cents: SCALING.priceCents,
      date: clinicDay(day),
      slot,
      patient_id: patient.id,
      patient_email: patient.email,
      patient_name: patient.name,
      phone: '+1 555 010 2030',
      age: 40,
    });
    await t.db.transaction().execute((tx) => insertBooking(tx, booking));
    return booking;
  }

  /** Both slots of the day held, by the first two patients: the day is full. */
  const fullDay = async (day: number) => [
    await held(patients[0] as Patient, day, TEN),
    await held(patients[1] as Patient, day, ELEVEN),
  ];

  const notified = async (day: number) =>
    (
      await t.db
        .selectFrom('waitlist_notice as n')
        .innerJoin('waitlist_entry as e', 'e.id', 'n.entry_id')
        .select(['e.patient_id', 'n.slot'])
        .where('e.date', '=', clinicDay(day))
        .execute()
    ).map((row) => row.patient_id);

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await buildTestApp({ env: { SMTP_URL: smtp.url, MAIL_RATE: '1000' } });
    await t.db
      .insertInto('treatment')
      .values(
        [SCALING, CROWN].map((treatment, index) => ({
          id: treatment.id,
          name: treatment.name,
          price_cents: treatment.priceCents,
          slots: JSON.stringify([TEN, ELEVEN]),
          sort_order: 99 + index,
        })),
      )
      .execute();
    forgetCachedTreatments(t.db);
    patients = [];
    for (const name of [
      'Fay Filler',
      'Gus Filler',
      'Ann One',
      'Ben Two',
      'Cat Three',
      'Dan Four',
    ]) {
      patients.push(await signedUpPatient(t.app, name));
    }
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('joins only a date the booking rules allow, with no free slot, once, and not while holding it', async () => {
    const [fay, , ann] = patients as [Patient, Patient, Patient];
    expect((await join(t.app, null, 10)).statusCode).toBe(401);
    expect((await join(t.app, ann.token, 'not a date')).statusCode).toBe(400);
    expect((await join(t.app, ann.token, -1)).statusCode).toBe(400);
    expect((await join(t.app, ann.token, 5000)).statusCode).toBe(400);
    const unknown = await join(t.app, ann.token, 10, 'no-such-treatment');
    expect(unknown.statusCode).toBe(400);

    const free = await join(t.app, ann.token, 10);
    expect(free.statusCode).toBe(409);
    expect(free.json().message).toBe(waitlistMessages.slotFree);

    await fullDay(10);
    const joined = await join(t.app, ann.token, 10);
    expect(joined.statusCode, joined.body).toBe(201);
    expect(joined.json()).toMatchObject({ treatment: SCALING.name });
    const again = await join(t.app, ann.token, 10);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(waitlistMessages.alreadyWaiting);
    const holder = await join(t.app, fay.token, 10);
    expect(holder.statusCode).toBe(409);
    expect(holder.json().message).toBe(waitlistMessages.alreadyBooked);

    await t.db
      .updateTable('user')
      .set({ emailVerified: engine === 'postgres' ? false : 0 })
      .where('id', '=', ann.id)
      .execute();
    try {
      expect((await join(t.app, ann.token, 11)).statusCode).toBe(403);
    } finally {
      await t.db
        .updateTable('user')
        .set({ emailVerified: engine === 'postgres' ? true : 1 })
        .where('id', '=', ann.id)
        .execute();
    }
  });

  it('keeps a patient to ten upcoming waitlists at once', async () => {
    const many = await signedUpPatient(t.app, 'Many Waits');
    for (let day = 200; day < 200 + WAITLIST_MAX_ENTRIES; day += 1) {
      await insertEntry(t.db, {
        patientId: many.id,
        treatmentId: SCALING.id,
        date: clinicDay(day),
        now: new Date(),
      });
    }
    await fullDay(220);
    const refused = await join(t.app, many.token, 220);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(waitlistMessages.tooMany(WAITLIST_MAX_ENTRIES));
    // One left, one joined.
    const [first] = (await api(t.app, many.token, 'GET', '/api/waitlist')).json().entries;
    expect((await api(t.app, many.token, 'DELETE', `/api/waitlist/${first.id}`)).statusCode).toBe(
      204,
    );
    expect((await join(t.app, many.token, 220)).statusCode).toBe(201);
  });

  it("lists and deletes the patient's own entries only", async () => {
    const [, , , ben, cat] = patients as [Patient, Patient, Patient, Patient, Patient];
    await fullDay(20);
    const joined = await join(t.app, ben.token, 20);
    expect(joined.statusCode, joined.body).toBe(201);
    const { id } = joined.json() as { id: string };

    const mine = await api(t.app, ben.token, 'GET', '/api/waitlist');
    expect(mine.statusCode).toBe(200);
    expect(mine.json().entries).toContainEqual(
      expect.objectContaining({
        id,
        treatmentId: SCALING.id,
        treatment: SCALING.name,
        date: mediumDay(20),
      }),
    );
    const theirs = await api(t.app, cat.token, 'GET', '/api/waitlist');
    expect(theirs.json().entries.map((entry: { id: string }) => entry.id)).not.toContain(id);
    expect((await api(t.app, null, 'GET', '/api/waitlist')).statusCode).toBe(401);

    expect((await api(t.app, cat.token, 'DELETE', `/api/waitlist/${id}`)).statusCode).toBe(403);
    expect((await api(t.app, ben.token, 'DELETE', '/api/waitlist/nothing-here')).statusCode).toBe(
      404,
    );
    expect((await api(t.app, ben.token, 'DELETE', `/api/waitlist/${id}`)).statusCode).toBe(204);
    const after = await api(t.app, ben.token, 'GET', '/api/waitlist');
    expect(after.json().entries.map((entry: { id: string }) => entry.id)).not.toContain(id);
  });

  it('mails a cancelled slot to the first three waiting, in the order they joined, with a link to book it', async () => {
    const [fay, , ann, ben, cat, dan] = patients as SixPatients;
    const [ten] = await fullDay(30);
    for (const patient of [ann, ben, cat, dan]) {
      expect((await join(t.app, patient.token, 30)).statusCode).toBe(201);
      // Distinct join times: the order is the time joined.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    smtp.clear();
    const cancelled = await api(t.app, fay.token, 'DELETE', `/api/booking/${ten?.id}`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);

    const mails = await Promise.all(
      [ann, ben, cat].map((patient) => smtp.waitForMail(isSlotFreeMail(patient.email))),
    );
    const query = new URLSearchParams({ date: clinicDay(30), book: SCALING.id, slot: TEN });
    for (const mail of mails) {
      // In the clinic's time, and saying so.
      expect(mail.text).toContain(`${mediumDay(30)}, ${TEN} (Eastern Time)`);
      expect(mail.text).toContain(`/appointment?${query}`);
    }
    expect((await notified(30)).sort()).toEqual([ann.id, ben.id, cat.id].sort());
    // The fourth hears nothing of this slot; the mail queue is empty by now.
    await smtp.waitForMail((mail) => mail.envelope.to.includes(fay.email));
    expect(smtp.messages.filter(isSlotFreeMail(dan.email))).toHaveLength(0);
  });

  it('tells the waiting of the slot a reschedule frees, and takes the patient who moves in off the list', async () => {
    const [, gus, ann] = patients as [Patient, Patient, Patient];
    const [, eleven] = await fullDay(40);
    expect((await join(t.app, ann.token, 40)).statusCode).toBe(201);
    smtp.clear();
    // Gus moves his 11:00 on day 40 to 10:00 on day 42 (free).
    const moved = await api(t.app, gus.token, 'POST', `/api/booking/${eleven?.id}/reschedule`, {
      date: mediumDay(42),
      slot: TEN,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const mail = await smtp.waitForMail(isSlotFreeMail(ann.email));
    expect(mail.text).toContain(`${mediumDay(40)}, ${ELEVEN} (Eastern Time)`);
    expect(await notified(40)).toEqual([ann.id]);

    // Ann moves a booking of hers into the freed slot: she holds it now, and leaves the list.
    const hers = await held(ann, 43, TEN);
    const taken = await api(t.app, ann.token, 'POST', `/api/booking/${hers.id}/reschedule`, {
      date: mediumDay(40),
      slot: ELEVEN,
    });
    expect(taken.statusCode, taken.body).toBe(200);
    const list = await api(t.app, ann.token, 'GET', '/api/waitlist');
    expect(list.json().entries.map((entry: { date: string }) => entry.date)).not.toContain(
      mediumDay(40),
    );
  });

  it('tells nobody of a slot freed on a day it cannot be booked: closed, or its dentist away', async () => {
    const [fay, , ann, ben, cat, dan] = patients as SixPatients;
    // Day 60: full, waited for, then closed; its bookings are cancelled as the closure asks.
    const [ten] = await fullDay(60);
    expect((await join(t.app, ann.token, 60)).statusCode).toBe(201);
    await t.db
      .insertInto('closure')
      .values({
        id: 'waitlist-closure',
        from_date: clinicDay(60),
        to_date: clinicDay(60),
        label: 'Staff training',
        created_at: new Date().toISOString(),
        created_by: null,
      })
      .execute();
    forgetClinicCalendar(t.db);
    smtp.clear();
    expect((await api(t.app, fay.token, 'DELETE', `/api/booking/${ten?.id}`)).statusCode).toBe(200);

    // Day 70: a treatment one dentist performs, full, waited for; then the dentist takes the day off.
    await t.db
      .insertInto('doctor')
      .values({
        id: 'waitlist-dentist',
        name: 'Dr. Wren Hale',
        email: 'wren.hale@example.com',
        specialty: CROWN.name,
        image_url: '/uploads/wren.png',
        created_at: new Date().toISOString(),
        work_days: JSON.stringify([0, 1, 2, 3, 4, 5, 6]),
      })
      .execute();
    await t.db
      .insertInto('doctor_treatment')
      .values({ doctor_id: 'waitlist-dentist', treatment_id: CROWN.id, position: 0 })
      .execute();
    const booked = [];
    for (const [who, slot] of [
      [cat, TEN],
      [dan, ELEVEN],
    ] as const) {
      const response = await api(t.app, who.token, 'POST', '/api/booking', {
        treatmentId: CROWN.id,
        date: mediumDay(70),
        slot,
        phone: '+1 555 010 2030',
        age: 40,
      });
      expect(response.statusCode, response.body).toBe(201);
      booked.push(response.json().booking._id as string);
    }
    expect((await join(t.app, ben.token, 70, CROWN.id)).statusCode).toBe(201);
    await t.db
      .insertInto('doctor_day_off')
      .values({ doctor_id: 'waitlist-dentist', date: clinicDay(70) })
      .execute();
    const cancelled = await api(t.app, dan.token, 'DELETE', `/api/booking/${booked[1]}`);
    expect(cancelled.statusCode).toBe(200);

    // Dan's cancellation mail comes after the queue passed any offer by.
    await smtp.waitForMail(
      (mail) => mail.envelope.to.includes(dan.email) && /cancel/i.test(mail.subject ?? ''),
    );
    expect(await notified(60)).toEqual([]);
    expect(await notified(70)).toEqual([]);
    expect(smtp.messages.filter((mail) => (mail.subject ?? '').includes('slot is free'))).toEqual(
      [],
    );

    // Nor can anyone join a day the treatment's only dentist is away: it would never free up.
    const away = await join(t.app, ann.token, 70, CROWN.id);
    expect(away.statusCode).toBe(409);
    expect(away.json().message).toBe(bookingErrors.noDentistThatDay(CROWN.name, mediumDay(70)));
  });

  it('lets exactly one of 200 waiting patients book the freed slot; the others stay on the list', async () => {
    const [fay] = patients as [Patient];
    const [ten] = await fullDay(50);
    const crowd = await seedPatients(t.db, engine, 200);
    const start = Date.now();
    const entries = await Promise.all(
      crowd.map((person, index) =>
        insertEntry(t.db, {
          patientId: person.userId,
          treatmentId: SCALING.id,
          date: clinicDay(50),
          now: new Date(start + index),
        }),
      ),
    );
    expect(entries.every((id) => id !== null)).toBe(true);
    smtp.clear();
    expect((await api(t.app, fay.token, 'DELETE', `/api/booking/${ten?.id}`)).statusCode).toBe(200);
    const told = await Promise.all(
      crowd
        .slice(0, 3)
        .map((person) => smtp.waitForMail((mail) => mail.envelope.to.includes(person.email))),
    );
    expect(told).toHaveLength(3);

    const tokens = await Promise.all(
      crowd.map(async (person) => (await t.app.accessTokens.issue(person)).token),
    );
    const responses = await Promise.all(
      tokens.map((token) =>
        api(t.app, token, 'POST', '/api/booking', {
          treatmentId: SCALING.id,
          date: mediumDay(50),
          slot: TEN,
          phone: '+1 555 010 2030',
          age: 30,
        }),
      ),
    );
    const codes = responses.map((response) => response.statusCode);
    expect(codes.filter((code) => code === 201)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(199);
    const winner = crowd[codes.indexOf(201)];
    const waiting = await t.db
      .selectFrom('waitlist_entry')
      .select('patient_id')
      .where('treatment_id', '=', SCALING.id)
      .where('date', '=', clinicDay(50))
      .execute();
    expect(waiting).toHaveLength(199);
    expect(waiting.map((row) => row.patient_id)).not.toContain(winner?.userId);
  });

  // A race of two writers, which SQLite, writing one transaction at a time, never has.
  it.runIf(engine === 'postgres')(
    'tells of a freed slot while a waiting patient leaves the list at that moment, without failing the freeing',
    async () => {
      const day = 90;
      const leaving = patients[2] as Patient;
      const staying = patients[3] as Patient;
      const leavingEntry = await insertEntry(t.db, {
        patientId: leaving.id,
        treatmentId: SCALING.id,
        date: clinicDay(day),
        now: new Date(),
      });
      expect(leavingEntry).not.toBeNull();
      await insertEntry(t.db, {
        patientId: staying.id,
        treatmentId: SCALING.id,
        date: clinicDay(day),
        now: new Date(Date.now() + 1),
      });
      // The patient's leaving, begun and not yet committed when the slot is freed.
      let commitLeaving = () => {};
      let left = () => {};
      const deleted = new Promise<void>((resolve) => {
        left = resolve;
      });
      const leave = t.db.transaction().execute(async (tx) => {
        await tx
          .deleteFrom('waitlist_entry')
          .where('id', '=', leavingEntry as string)
          .execute();
        left();
        await new Promise<void>((resolve) => {
          commitLeaving = resolve;
        });
      });
      await deleted;
      const freeing = t.db
        .transaction()
        .execute((tx) =>
          takeWaitingFor(
            tx,
            { treatmentId: SCALING.id, date: clinicDay(day), slot: TEN },
            3,
            new Date(),
          ),
        );
      await new Promise((resolve) => setTimeout(resolve, 200));
      commitLeaving();
      await leave;
      const told = await freeing;
      expect(told.map((patient) => patient.email)).toEqual([staying.email]);
      expect(await notified(day)).not.toContain(leaving.id);
    },
  );
});

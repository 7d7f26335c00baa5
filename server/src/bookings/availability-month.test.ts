import { randomUUID } from 'node:crypto';
import {
  type AvailableDay,
  type AvailableMonth,
  type AvailableTreatment,
  addDays,
  availableMonthErrors,
  formatMediumDate,
  type IsoDate,
  slotStartMinutes,
  weekdayOf,
} from '@doctors-portal/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { type Person, signedUpAdmin } from '../../test/admin-fixtures.js';
import { clinicDay, clinicTime } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { listTreatments, type TreatmentRecord } from '../treatments/repository.js';
import { clock } from './clock.js';
import { insertBooking, newBookingRow } from './repository.js';

/** The test clock's next month (its today is Jan 1, 2031): bookings, a closure, full days. */
const MONTH = clinicDay(40).slice(0, 7);
const dayOf = (month: string, day: number) => `${month}-${String(day).padStart(2, '0')}` as IsoDate;
const SUNDAY = 0;

async function monthOf(t: TestApp, month: string): Promise<AvailableMonth> {
  const response = await t.app.inject(`/api/available/month?month=${month}`);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  return response.json() as AvailableMonth;
}

const statusOf = (answer: AvailableMonth, date: IsoDate) =>
  answer.days.find((day) => day.date === date)?.status;

/** Every day of the month's answer against that day's `GET /api/available`, one by one. */
async function expectAgreement(t: TestApp, month: string): Promise<AvailableDay[]> {
  const { days } = await monthOf(t, month);
  for (const day of days) {
    const response = await t.app.inject(
      `/api/available?date=${encodeURIComponent(formatMediumDate(day.date as IsoDate))}`,
    );
    const free = (response.json() as AvailableTreatment[]).some((entry) => entry.slots.length);
    expect({ date: day.date, open: free }).toEqual({ date: day.date, open: day.status === 'open' });
  }
  return days;
}

describe(`GET /api/available/month (${engine})`, () => {
  let t: TestApp;
  let admin: Person;
  let treatments: TreatmentRecord[];
  const dora = randomUUID();
  /** The treatments Dora performs: she alone, Monday to Friday. */
  const DORA_DOES = ['teeth-whitening', 'cavity-filling'];

  const book = (date: IsoDate, treatment: TreatmentRecord, slot: string, doctorId?: string) =>
    insertBooking(
      t.db,
      newBookingRow({
        treatment_id: treatment.id,
        treatment_name: treatment.name,
        price_cents: treatment.priceCents,
        date,
        slot,
        patient_id: null,
        patient_email: `${randomUUID()}@mail.com`,
        patient_name: 'Walk In',
        phone: '+1 555 010 2030',
        age: 40,
        ...(doctorId && { doctor_id: doctorId, doctor_name: 'Dora Doe' }),
      }),
    );
  /** Every slot of every treatment but `except`'s taken without a doctor. */
  const fill = async (date: IsoDate, except: string[] = []) => {
    for (const treatment of treatments.filter((entry) => !except.includes(entry.id))) {
      for (const slot of treatment.slots) await book(date, treatment, slot);
    }
  };
  const call = (method: 'PUT' | 'POST', url: string, payload: object) =>
    t.app.inject({ method, url, headers: bearer(admin.token), payload });

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedUpAdmin(t.app);
    treatments = await listTreatments(t.db);
    await t.db
      .insertInto('doctor')
      .values({
        id: dora,
        name: 'Dora Doe',
        email: 'dora@clinic.com',
        specialty: 'Teeth Whitening',
        image_url: '/uploads/dora.webp',
        created_at: new Date().toISOString(),
        work_days: JSON.stringify([1, 2, 3, 4, 5]),
      })
      .execute();
    await t.db
      .insertInto('doctor_treatment')
      .values(DORA_DOES.map((id, position) => ({ doctor_id: dora, treatment_id: id, position })))
      .execute();
    await t.db
      .insertInto('doctor_day_off')
      .values({ doctor_id: dora, date: dayOf(MONTH, 12) })
      .execute();
    // Closed on Sundays, and for two days of the month.
    expect(
      (await call('PUT', '/api/clinic/opening-days', { days: [1, 2, 3, 4, 5, 6] })).statusCode,
    ).toBe(200);
    const closure = await call('POST', '/api/closures', {
      from: dayOf(MONTH, 20),
      to: dayOf(MONTH, 21),
      label: 'Staff training',
    });
    expect(closure.statusCode, closure.body).toBe(201);
    // A few bookings on some days, with and without Dora.
    for (const day of [3, 4, 5]) {
      const date = dayOf(MONTH, day);
      const cleaning = treatments.find((entry) => entry.id === 'teeth-cleaning') as TreatmentRecord;
      await book(date, cleaning, cleaning.slots[0] as string);
      const whitening = treatments.find(
        (entry) => entry.id === 'teeth-whitening',
      ) as TreatmentRecord;
      await book(date, whitening, whitening.slots[0] as string, dora);
    }
    // Full: every slot taken (the 14th); every slot but Dora's taken, and she is off (the 12th)
    // or all her hours are held, by bookings of both her treatments (the 13th).
    await fill(dayOf(MONTH, 14));
    await fill(dayOf(MONTH, 12), DORA_DOES);
    await fill(dayOf(MONTH, 13), DORA_DOES);
    const [whitening, cavity] = DORA_DOES.map(
      (id) => treatments.find((entry) => entry.id === id) as TreatmentRecord,
    ) as [TreatmentRecord, TreatmentRecord];
    for (const slot of whitening.slots) await book(dayOf(MONTH, 13), whitening, slot, dora);
    // Cavity filling's slots from 2 PM on overlap whitening's, held already.
    for (const slot of cavity.slots.filter((entry) => (slotStartMinutes(entry) ?? 0) < 14 * 60)) {
      await book(dayOf(MONTH, 13), cavity, slot, dora);
    }
    // Open: every slot but Dora's taken, and she is at work and free (the 17th).
    await fill(dayOf(MONTH, 17), DORA_DOES);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('gives every day of the month its status, agreeing day by day with GET /api/available', async () => {
    const days = await expectAgreement(t, MONTH);
    expect(days.map((day) => day.date)).toEqual(
      Array.from({ length: days.length }, (_, index) => dayOf(MONTH, index + 1)),
    );
    expect(days.length).toBeGreaterThanOrEqual(28);
    const answer = { month: MONTH, days };
    expect(statusOf(answer, dayOf(MONTH, 14))).toBe('full');
    expect(statusOf(answer, dayOf(MONTH, 13))).toBe('full');
    expect(statusOf(answer, dayOf(MONTH, 12))).toBe('full');
    expect(statusOf(answer, dayOf(MONTH, 17))).toBe('open');
    expect(answer.days.find((day) => day.date === dayOf(MONTH, 20))).toEqual({
      date: dayOf(MONTH, 20),
      status: 'closed',
      label: 'Staff training',
    });
    expect(statusOf(answer, dayOf(MONTH, 21))).toBe('closed');
    for (const day of days.filter((entry) => weekdayOf(entry.date as IsoDate) === SUNDAY)) {
      expect(day).toEqual({ date: day.date, status: 'closed', label: 'Closed on Sundays' });
    }
    expect(days.filter((day) => day.status === 'open').length).toBeGreaterThan(15);
  });

  it("marks today's month past up to today, and today past once its last slot is too soon", async () => {
    // 8:30 PM on the 20th: the last slot of the day (8:00 PM) has started.
    const today = dayOf(clinicDay(0).slice(0, 7), 20);
    vi.spyOn(clock, 'now').mockReturnValue(clinicTime(today, '20:30'));
    const days = await expectAgreement(t, today.slice(0, 7));
    for (const day of days.filter((entry) => entry.date <= today)) {
      expect(day.status, day.date).toBe('past');
    }
    expect(days.filter((day) => day.date > today).every((day) => day.status !== 'past')).toBe(true);
  });

  it('marks the days within the minimum notice past, and agrees with GET /api/available there', async () => {
    const { rules } = (
      await t.app.inject({ url: '/api/clinic/rules', headers: bearer(admin.token) })
    ).json() as { rules: object };
    const today = dayOf(clinicDay(0).slice(0, 7), 20);
    vi.spyOn(clock, 'now').mockReturnValue(clinicTime(today, '20:30'));
    const put = await call('PUT', '/api/clinic/rules', {
      ...rules,
      minNoticeMinutes: 2 * 1440,
    });
    expect(put.statusCode, put.body).toBe(200);
    try {
      const days = await expectAgreement(t, today.slice(0, 7));
      const tomorrow = days.find((day) => day.date === addDays(today, 1));
      const next = days.find((day) => day.date === addDays(today, 2));
      // Two days' notice at 8:30 PM: nothing of tomorrow, nor of the day after (its last slot
      // starts at 8:00 PM); the third day is whole.
      expect([tomorrow?.status, next?.status]).toEqual([
        weekdayOf(addDays(today, 1)) === SUNDAY ? 'closed' : 'past',
        weekdayOf(addDays(today, 2)) === SUNDAY ? 'closed' : 'past',
      ]);
    } finally {
      const back = await call('PUT', '/api/clinic/rules', rules);
      expect(back.statusCode).toBe(200);
    }
  });

  it('ends at the booking horizon: later days are beyond it (or closed), and agree', async () => {
    // The tests' horizon is 730 days (test/helper.ts).
    const last = clinicDay(730);
    const days = await expectAgreement(t, clinicDay(731).slice(0, 7));
    for (const day of days.filter((entry) => entry.date > last)) {
      expect(['beyond-horizon', 'closed']).toContain(day.status);
    }
    expect(days.some((day) => day.status === 'beyond-horizon')).toBe(true);
  });

  it('answers any month from 1970 to 9999: a long past one all past, a far one beyond the horizon', async () => {
    const past = await monthOf(t, '1999-02');
    expect(past.month).toBe('1999-02');
    expect(past.days).toHaveLength(28);
    expect(past.days.every((day) => day.status === 'past')).toBe(true);
    const far = await monthOf(t, '9999-12');
    expect(far.days).toHaveLength(31);
    expect(far.days.every((day) => ['beyond-horizon', 'closed'].includes(day.status))).toBe(true);
    expect((await monthOf(t, '2032-02')).days).toHaveLength(29);
  });

  it.each([
    ['', 'an empty month'],
    ['2031-13', 'month 13'],
    ['2031-00', 'month 0'],
    ['2031-1', 'one digit'],
    ['1969-12', 'a year before 1970'],
    ['2031-02-01', 'a date'],
    ['Feb 2031', 'a name'],
  ])('refuses %j (%s) with 400 and says how to write a month', async (month) => {
    const response = await t.app.inject(`/api/available/month?month=${encodeURIComponent(month)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(availableMonthErrors.month);
  });

  it('refuses a request without a month with 400', async () => {
    const response = await t.app.inject('/api/available/month');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(availableMonthErrors.month);
  });
});

describe(`GET /api/available/month with 1,000 bookings in the month (${engine})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
    const daySlots = (await listTreatments(t.db)).flatMap((treatment) =>
      treatment.slots.map((slot) => ({ treatment, slot })),
    );
    // Whole days filled from the month's first on, one multi-row insert per day.
    const rows = Array.from({ length: 1_000 }, (_, index) => {
      const { treatment, slot } = daySlots[index % daySlots.length] as (typeof daySlots)[number];
      return newBookingRow({
        treatment_id: treatment.id,
        treatment_name: treatment.name,
        price_cents: treatment.priceCents,
        date: dayOf(MONTH, 1 + Math.floor(index / daySlots.length)),
        slot,
        patient_id: null,
        patient_email: `bulk-${index}@mail.com`,
        patient_name: `Patient ${index}`,
        phone: '+1 555 010 2030',
        age: 30,
      });
    });
    await t.db.transaction().execute(async (trx) => {
      for (let start = 0; start < rows.length; start += 100) {
        await trx
          .insertInto('booking')
          .values(rows.slice(start, start + 100))
          .execute();
      }
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers within a few milliseconds (the figure is logged)', async () => {
    const times: number[] = [];
    let answer: AvailableMonth | undefined;
    for (let run = 0; run < 60; run += 1) {
      const start = performance.now();
      answer = await monthOf(t, MONTH);
      if (run >= 10) times.push(performance.now() - start);
    }
    // Whole days are full, the rest open.
    expect(answer?.days.filter((day) => day.status === 'full').length).toBeGreaterThan(5);
    expect(answer?.days.filter((day) => day.status === 'open').length).toBeGreaterThan(5);
    const median = times.toSorted((a, b) => a - b)[times.length >> 1] ?? 0;
    // biome-ignore lint/suspicious/noConsole: the figure is the point of this test.
    console.log(
      `month availability (${engine}): 1,000 bookings in the month, p50 ${median.toFixed(2)} ms`,
    );
    // Generous, for a shared machine.
    expect(median).toBeLessThan(100);
  }, 60_000);
});

import {
  type ClinicCalendar,
  type ClinicRules,
  type ClosureWithBookings,
  type IsoDate,
  parseMediumDate,
  weekdayOf,
} from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { auditEntriesOf } from '../../test/admin-fixtures.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  type Patient,
  signedUpAdmin,
  signedUpPatient,
  unpaidBooking,
} from '../../test/payment-fixtures.js';
import { forgetAvailabilityAnswers } from '../bookings/availability-cache.js';
import { forgetClinicCalendar } from './calendar.js';

/**
 * The clinic's calendar and booking rules: weekly closed days and closures offer no slots and
 * refuse bookings, a closure lists the bookings already on its days, the rules come from the
 * environment until the clinic stores its own, the minimum notice and the cancellation notice
 * hold, and every change is in the audit log.
 */

const RULES_FROM_ENV = {
  horizonDays: 400,
  minNoticeMinutes: 0,
  maxUnpaidBookings: 7,
  cancellationNoticeHours: 0,
  reminderLeadHours: 24,
};

const RULE_ENV = {
  BOOKING_HORIZON_DAYS: '400',
  MAX_UNPAID_BOOKINGS: '7',
  MIN_BOOKING_NOTICE_MINUTES: '0',
  CANCELLATION_NOTICE_HOURS: '0',
  REMINDER_LEAD_HOURS: '24',
};

describe(`the clinic's calendar and booking rules (${engine})`, () => {
  let t: TestApp;
  let admin: Patient;
  let jane: Patient;

  const call = (
    who: Patient | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) =>
    t.app.inject({
      method,
      url,
      headers: who ? bearer(who.token) : {},
      ...(payload ? { payload } : {}),
    });

  const slotsOn = async (offset: number) => {
    const response = await call(
      null,
      'GET',
      `/api/available?date=${encodeURIComponent(mediumDay(offset))}`,
    );
    expect(response.statusCode).toBe(200);
    return (response.json() as Array<{ _id: string; slots: string[] }>).find(
      (treatment) => treatment._id === 'teeth-cleaning',
    )?.slots;
  };

  const book = (
    app: FastifyInstance,
    patient: Patient,
    offset: number,
    slot = '10:00 AM - 10:30 AM',
  ) =>
    app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(patient.token),
      payload: {
        treatmentId: 'teeth-cleaning',
        date: mediumDay(offset),
        slot,
        phone: '+1 555 010 2030',
        age: 34,
      },
    });

  const auditActions = async (prefix: string) =>
    (
      await t.db
        .selectFrom('audit_log')
        .select(['action', 'actor_id', 'before', 'after'])
        .where('action', 'like', `${prefix}%`)
        .orderBy('at')
        .execute()
    ).map((row) => ({
      action: row.action,
      actor: row.actor_id,
      before: row.before === null ? null : JSON.parse(row.before),
      after: row.after === null ? null : JSON.parse(row.after),
    }));

  beforeAll(async () => {
    t = await buildTestApp({ env: RULE_ENV });
    admin = await signedUpAdmin(t);
    jane = await signedUpPatient(t.app, 'Jane Doe');
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    // Each test starts from the defaults: every day open, no closures, the environment's rules.
    await t.db.deleteFrom('clinic_setting').execute();
    await t.db.deleteFrom('closure').execute();
    forgetClinicCalendar(t.db);
    forgetAvailabilityAnswers();
  });

  it('opens every day by default, and a weekly closed day offers no slots and refuses bookings', async () => {
    const day = 40;
    const weekday = weekdayOf(clinicDay(day));
    const open = [0, 1, 2, 3, 4, 5, 6].filter((d) => d !== weekday);
    const before = await call(
      null,
      'GET',
      `/api/clinic/calendar?from=${clinicDay(day)}&to=${clinicDay(day + 6)}`,
    );
    expect(before.json()).toMatchObject({ openingDays: [0, 1, 2, 3, 4, 5, 6], closed: [] });
    expect(before.headers['cache-control']).toBe('public, max-age=0, s-maxage=30');
    expect((await slotsOn(day))?.length).toBeGreaterThan(0);

    const put = await call(admin, 'PUT', '/api/clinic/opening-days', { days: [...open].reverse() });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ days: open, bookings: [] });

    // Every treatment is still listed, with no slots.
    const answer = await call(
      null,
      'GET',
      `/api/available?date=${encodeURIComponent(mediumDay(day))}`,
    );
    const treatments = answer.json() as Array<{ slots: string[] }>;
    expect(treatments.length).toBeGreaterThan(1);
    expect(treatments.every((treatment) => treatment.slots.length === 0)).toBe(true);
    expect((await slotsOn(day + 1))?.length).toBeGreaterThan(0);

    const refused = await book(t.app, jane, day);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/^The clinic is closed on .+ \(Closed on \w+days\)\./);

    const calendar = (
      await call(
        null,
        'GET',
        `/api/clinic/calendar?from=${clinicDay(day)}&to=${clinicDay(day + 13)}`,
      )
    ).json() as ClinicCalendar;
    expect(calendar.openingDays).toEqual(open);
    expect(calendar.closed.map((closed) => closed.date)).toEqual([
      clinicDay(day),
      clinicDay(day + 7),
    ]);
    expect(calendar.closed[0]?.reason).toBe('weekly');

    expect(await auditActions('clinic.opening_days')).toEqual([
      {
        action: 'clinic.opening_days_changed',
        actor: admin.id,
        before: { days: [0, 1, 2, 3, 4, 5, 6] },
        after: { days: open },
      },
    ]);
    // The same days again: nothing changes, and nothing more is audited.
    const again = await call(admin, 'PUT', '/api/clinic/opening-days', { days: open });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ days: open, bookings: [] });
    expect(await auditActions('clinic.opening_days')).toHaveLength(1);
  });

  it('answers a change with the live bookings left on the weekdays it closed', async () => {
    const day = 60;
    const booked = await book(t.app, jane, day, '11:00 AM - 11:30 AM');
    expect(booked.statusCode, booked.body).toBe(201);
    const id = booked.json().booking._id as string;
    const weekday = weekdayOf(clinicDay(day));
    const open = [0, 1, 2, 3, 4, 5, 6].filter((d) => d !== weekday);

    const closing = await call(admin, 'PUT', '/api/clinic/opening-days', { days: open });
    expect(closing.statusCode, closing.body).toBe(200);
    const { bookings } = closing.json() as { bookings: Array<{ _id: string; date: string }> };
    expect(bookings.map((booking) => booking._id)).toContain(id);
    // Dates on the wire in the medium format: 'Jan 5, 2022'.
    const weekdays = bookings.map((booking) => weekdayOf(parseMediumDate(booking.date) as IsoDate));
    expect(new Set(weekdays)).toEqual(new Set([weekday]));
    // The booking stays; opening the day again closes nothing, and lists none.
    const reopening = await call(admin, 'PUT', '/api/clinic/opening-days', {
      days: [0, 1, 2, 3, 4, 5, 6],
    });
    expect(reopening.json()).toEqual({ days: [0, 1, 2, 3, 4, 5, 6], bookings: [] });
    expect((await call(jane, 'DELETE', `/api/booking/${id}`)).statusCode).toBe(200);
  });

  it('refuses opening days that are not weekdays, repeated, or none', async () => {
    for (const days of [[], [7], [1, 1], [1.5], ['1'], [-1]]) {
      const response = await call(admin, 'PUT', '/api/clinic/opening-days', { days });
      expect(response.statusCode, JSON.stringify(days)).toBe(400);
      expect(response.json().message).toBeTruthy();
    }
  });

  it('closes a range of dates with a label, lists the bookings on it, and opens again when removed', async () => {
    const booked = await unpaidBooking(t, jane, {
      date: clinicDay(50),
      slot: '11:00 AM - 11:30 AM',
    });
    const cancelled = await unpaidBooking(t, jane, {
      date: clinicDay(51),
      status: 'cancelled',
      cancelled_at: new Date().toISOString(),
    });
    // Warm the availability answer: the closure must clear it.
    expect((await slotsOn(51))?.length).toBeGreaterThan(0);

    const added = await call(admin, 'POST', '/api/closures', {
      from: clinicDay(50),
      to: clinicDay(52),
      label: '  Staff training  ',
    });
    expect(added.statusCode, added.body).toBe(201);
    const closure = added.json() as ClosureWithBookings;
    expect(closure).toMatchObject({
      from: clinicDay(50),
      to: clinicDay(52),
      label: 'Staff training',
    });
    expect(closure.bookings.map((booking) => booking._id)).toEqual([booked.id]);
    expect(closure.bookings.map((booking) => booking._id)).not.toContain(cancelled.id);

    for (const day of [50, 51, 52]) expect(await slotsOn(day)).toEqual([]);
    expect((await slotsOn(53))?.length).toBeGreaterThan(0);
    const refused = await book(t.app, jane, 51);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('(Staff training)');

    const calendar = (
      await call(null, 'GET', `/api/clinic/calendar?from=${clinicDay(49)}&to=${clinicDay(53)}`)
    ).json() as ClinicCalendar;
    expect(calendar.closed).toEqual(
      [50, 51, 52].map((day) => ({
        date: clinicDay(day),
        reason: 'closure',
        label: 'Staff training',
      })),
    );

    const listed = await call(admin, 'GET', '/api/closures');
    expect(listed.statusCode).toBe(200);
    expect(
      (listed.json() as ClosureWithBookings[]).map((entry) => [entry.id, entry.bookings.length]),
    ).toEqual([[closure.id, 1]]);

    // The clinic cancels the booking, with the closure's label as the reason.
    const cancel = await call(admin, 'POST', `/api/booking/${booked.id}/cancel`, {
      reason: closure.label,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect((await call(admin, 'GET', '/api/closures')).json()[0].bookings).toEqual([]);

    const removed = await call(admin, 'DELETE', `/api/closures/${closure.id}`);
    expect(removed.statusCode).toBe(200);
    expect((await slotsOn(51))?.length).toBeGreaterThan(0);
    expect((await call(admin, 'DELETE', `/api/closures/${closure.id}`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', '/api/closures/not-a-uuid')).statusCode).toBe(404);

    expect(await auditActions('clinic.closure')).toEqual([
      {
        action: 'clinic.closure_added',
        actor: admin.id,
        before: null,
        after: { from: clinicDay(50), to: clinicDay(52), label: 'Staff training' },
      },
      {
        action: 'clinic.closure_removed',
        actor: admin.id,
        before: { from: clinicDay(50), to: clinicDay(52), label: 'Staff training' },
        after: null,
      },
    ]);
  });

  it('removes a closure once when two administrators remove it at the same moment: the other is told it is gone (404)', async () => {
    const added = await call(admin, 'POST', '/api/closures', {
      from: clinicDay(70),
      to: clinicDay(71),
      label: 'Inventory',
    });
    const { id } = added.json() as ClosureWithBookings;
    const answers = await Promise.all(
      [1, 2, 3].map(() => call(admin, 'DELETE', `/api/closures/${id}`)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 404, 404]);
    expect(await auditEntriesOf(t.db, 'clinic.closure_removed', id)).toHaveLength(1);
  });

  it('audits each of several opening-day changes made at once from the days the one before left', async () => {
    const changes = [
      [1, 2, 3, 4, 5],
      [0, 1, 2, 3, 4],
      [2, 3, 4, 5, 6],
      [1, 3, 5],
    ];
    const earlier = (await auditActions('clinic.opening_days_changed')).length;
    const answers = await Promise.all(
      changes.map((days) => call(admin, 'PUT', '/api/clinic/opening-days', { days })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    const entries = (await auditActions('clinic.opening_days_changed')).slice(earlier);
    expect(entries).toHaveLength(changes.length);
    // Each change starts from a different state: none was audited from days already replaced.
    const starts = entries.map((entry) => JSON.stringify(entry.before.days));
    expect(new Set(starts).size).toBe(changes.length);
  });

  it('refuses a closure ending before it starts, without a label, or with a bad date; bounds the calendar', async () => {
    const cases: Array<Record<string, unknown>> = [
      { from: clinicDay(10), to: clinicDay(9), label: 'Backwards' },
      { from: clinicDay(10), to: clinicDay(10), label: '   ' },
      { from: clinicDay(10), to: clinicDay(10) },
      { from: clinicDay(10), to: clinicDay(10), label: 'x'.repeat(81) },
      { from: mediumDay(10), to: clinicDay(10), label: 'Medium date' },
      { from: clinicDay(10), to: clinicDay(400), label: 'Too long' },
    ];
    for (const body of cases) {
      const response = await call(admin, 'POST', '/api/closures', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    // Labels show on the public calendar as one line of visible text.
    for (const [label, message] of [
      ['\u200b\u200b', 'Give the closure a label, such as the holiday’s name.'],
      [
        'Holiday\nATTENDEE:x',
        'The label must not contain line breaks, control or text-direction characters.',
      ],
      [
        'Holiday \u202e',
        'The label must not contain line breaks, control or text-direction characters.',
      ],
    ]) {
      const refused = await call(admin, 'POST', '/api/closures', {
        from: clinicDay(10),
        to: clinicDay(10),
        label,
      });
      expect(refused.statusCode, label).toBe(400);
      expect(refused.json().message).toBe(message);
    }
    const backwards = await call(admin, 'POST', '/api/closures', cases[0]);
    expect(backwards.json().message).toContain('The end date must not be before the start date.');
    // Over by today: it would close nothing, and no list would show it to remove.
    const over = await call(admin, 'POST', '/api/closures', {
      from: clinicDay(-3),
      to: clinicDay(-1),
      label: 'Past',
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe(
      'Those days are already over: a closure must end today or later.',
    );
    const endingToday = { from: clinicDay(-1), to: clinicDay(0), label: 'Ends today' };
    const kept = await call(admin, 'POST', '/api/closures', endingToday);
    expect(kept.statusCode).toBe(201);
    expect((await call(admin, 'DELETE', `/api/closures/${kept.json().id}`)).statusCode).toBe(200);
    // The last date an ISO date names: the range ends there, not in a year 10000.
    const last = await call(null, 'GET', '/api/clinic/calendar?from=9999-12-01&to=9999-12-31');
    expect(last.statusCode).toBe(200);
    expect(last.json().from).toBe('9999-12-01');
    expect(
      (await call(null, 'GET', `/api/clinic/calendar?from=${clinicDay(0)}&to=${clinicDay(366)}`))
        .statusCode,
    ).toBe(400);
    expect(
      (await call(null, 'GET', `/api/clinic/calendar?from=${clinicDay(0)}&to=${clinicDay(365)}`))
        .statusCode,
    ).toBe(200);
  });

  it('takes the rules from the environment until the clinic stores its own', async () => {
    const defaults = {
      horizonDays: 400,
      minNoticeMinutes: 0,
      maxUnpaidBookings: 7,
      cancellationNoticeHours: 0,
      reminderLeadHours: 24,
    };
    const first = await call(admin, 'GET', '/api/clinic/rules');
    expect(first.json()).toEqual({
      rules: defaults,
      defaults,
      stored: false,
    } satisfies ClinicRules);

    // The environment's horizon holds: 400 days ahead is bookable, 401 is not.
    expect((await book(t.app, jane, 401)).statusCode).toBe(400);

    const rules = {
      horizonDays: 30,
      minNoticeMinutes: 120,
      maxUnpaidBookings: 1,
      cancellationNoticeHours: 24,
      reminderLeadHours: 48,
    };
    const put = await call(admin, 'PUT', '/api/clinic/rules', rules);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ rules, defaults, stored: true });
    expect((await call(admin, 'GET', '/api/clinic/rules')).json()).toEqual({
      rules,
      defaults,
      stored: true,
    });

    const beyond = await book(t.app, jane, 31);
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().message).toContain('30 days');

    // The cap of one unpaid booking.
    const patient = await signedUpPatient(t.app, 'Capped Patient');
    expect((await book(t.app, patient, 20)).statusCode).toBe(201);
    expect((await book(t.app, patient, 21)).statusCode).toBe(409);

    expect(await auditActions('clinic.rules')).toEqual([
      { action: 'clinic.rules_changed', actor: admin.id, before: defaults, after: rules },
    ]);

    for (const bad of [
      { ...rules, horizonDays: 0 },
      { ...rules, minNoticeMinutes: -1 },
      { ...rules, maxUnpaidBookings: 1.5 },
      { ...rules, cancellationNoticeHours: '24' },
      { horizonDays: 30 },
    ]) {
      expect(
        (await call(admin, 'PUT', '/api/clinic/rules', bad)).statusCode,
        JSON.stringify(bad),
      ).toBe(400);
    }
  });

  it('records nothing when the rules saved are the ones already stored', async () => {
    const earlier = (await auditActions('clinic.rules')).length;
    const rules = {
      horizonDays: 90,
      minNoticeMinutes: 60,
      maxUnpaidBookings: 3,
      cancellationNoticeHours: 12,
      reminderLeadHours: 24,
    };
    for (const _ of [1, 2]) {
      expect((await call(admin, 'PUT', '/api/clinic/rules', rules)).statusCode).toBe(200);
    }
    // Stored, though the same as the environment's: a change, from the defaults.
    const defaults = { ...RULES_FROM_ENV };
    expect((await call(admin, 'PUT', '/api/clinic/rules', defaults)).statusCode).toBe(200);
    expect((await call(admin, 'PUT', '/api/clinic/rules', defaults)).statusCode).toBe(200);
    expect((await auditActions('clinic.rules')).slice(earlier)).toEqual([
      { action: 'clinic.rules_changed', actor: admin.id, before: defaults, after: rules },
      { action: 'clinic.rules_changed', actor: admin.id, before: rules, after: defaults },
    ]);
  });

  it('leaves out and refuses the slots within the minimum notice', async () => {
    // The test clock stands at noon: today's 5:00 PM slot is five hours away.
    expect(await slotsOn(0)).toContain('5:00 PM - 5:30 PM');
    const rules = {
      horizonDays: 400,
      minNoticeMinutes: 360,
      maxUnpaidBookings: 7,
      cancellationNoticeHours: 0,
      reminderLeadHours: 24,
    };
    expect((await call(admin, 'PUT', '/api/clinic/rules', rules)).statusCode).toBe(200);
    const slots = await slotsOn(0);
    expect(slots).not.toContain('5:00 PM - 5:30 PM');
    expect(slots).not.toContain('5:30 PM - 6:00 PM');
    expect(slots).toContain('6:00 PM - 6:30 PM');
    const refused = await book(t.app, jane, 0, '5:30 PM - 6:00 PM');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'Bookings close 6 hours before the visit starts. Please pick a later slot.',
    );
    const patient = await signedUpPatient(t.app, 'Notice Patient');
    expect((await book(t.app, patient, 0, '6:00 PM - 6:30 PM')).statusCode).toBe(201);
  });

  it("holds a patient's cancellation to the cancellation notice", async () => {
    const patient = await signedUpPatient(t.app, 'Cancelling Patient');
    // Tomorrow at 10:00 AM: 22 hours away.
    const soon = await unpaidBooking(t, patient, {
      date: clinicDay(1),
      slot: '10:00 AM - 10:30 AM',
    });
    const later = await unpaidBooking(t, patient, {
      date: clinicDay(3),
      slot: '10:00 AM - 10:30 AM',
    });
    const rules = {
      horizonDays: 400,
      minNoticeMinutes: 0,
      maxUnpaidBookings: 7,
      cancellationNoticeHours: 24,
      reminderLeadHours: 24,
    };
    expect((await call(admin, 'PUT', '/api/clinic/rules', rules)).statusCode).toBe(200);

    const mine = (
      await call(patient, 'GET', `/api/booking?patientMail=${encodeURIComponent(patient.email)}`)
    ).json() as Array<{ _id: string; cancellable: boolean }>;
    expect(mine.find((booking) => booking._id === soon.id)?.cancellable).toBe(false);
    expect(mine.find((booking) => booking._id === later.id)?.cancellable).toBe(true);

    const refused = await call(patient, 'DELETE', `/api/booking/${soon.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'Appointments can be cancelled online up to 24 hours before the visit, and this one starts sooner. Please call the clinic on +1 (555) 010-2030.',
    );
    expect((await call(patient, 'DELETE', `/api/booking/${later.id}`)).statusCode).toBe(200);
  });
});

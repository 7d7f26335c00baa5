import { describe, expect, it } from 'vitest';
import {
  CALENDAR_MAX_DAYS,
  calendarQuerySchema,
  clinicCalendarErrors,
  closureRequestSchema,
} from './clinic-calendar.js';
import { SCHEDULE_MAX_DAYS, scheduleErrors, scheduleQuerySchema } from './schedule.js';

/** The issues of a parse, as the path and message of each. */
const issuesOf = (result: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) => (result.error?.issues ?? []).map((issue) => ({ path: issue.path, message: issue.message }));

describe('the date ranges the schedule and the clinic calendar accept', () => {
  it.each([
    ['the schedule', scheduleQuerySchema, SCHEDULE_MAX_DAYS, scheduleErrors.tooLong],
    ['the calendar', calendarQuerySchema, CALENDAR_MAX_DAYS, clinicCalendarErrors.calendarTooLong],
  ])('%s covers one day up to its longest range', (_name, schema, maxDays, tooLong) => {
    expect(issuesOf(schema.safeParse({ from: '2030-01-05', to: '2030-01-05' }))).toEqual([]);
    const last = new Date(Date.UTC(2030, 0, 5 + maxDays - 1)).toISOString().slice(0, 10);
    expect(issuesOf(schema.safeParse({ from: '2030-01-05', to: last }))).toEqual([]);
    const beyond = new Date(Date.UTC(2030, 0, 5 + maxDays)).toISOString().slice(0, 10);
    expect(issuesOf(schema.safeParse({ from: '2030-01-05', to: beyond }))).toEqual([
      { path: ['to'], message: tooLong },
    ]);
    expect(issuesOf(schema.safeParse({ from: '2030-01-05', to: '2030-01-04' }))).toEqual([
      { path: ['to'], message: scheduleErrors.toBeforeFrom },
    ]);
  });

  it.each([
    ['the schedule', scheduleQuerySchema],
    ['the calendar', calendarQuerySchema],
  ])('%s names only the date that is not real, with no word on the range', (_name, schema) => {
    expect(issuesOf(schema.safeParse({ from: '2030-02-30', to: '2030-03-01' }))).toEqual([
      { path: ['from'], message: 'Provide a real date in the form 2022-01-05' },
    ]);
  });

  it('a closure lasts from one day to a year, with its own message when longer', () => {
    const closure = { from: '2030-12-24', label: 'Holidays' };
    expect(issuesOf(closureRequestSchema.safeParse({ ...closure, to: '2030-12-26' }))).toEqual([]);
    expect(issuesOf(closureRequestSchema.safeParse({ ...closure, to: '2030-12-23' }))).toEqual([
      { path: ['to'], message: clinicCalendarErrors.toBeforeFrom },
    ]);
    expect(issuesOf(closureRequestSchema.safeParse({ ...closure, to: '2032-01-01' }))).toEqual([
      { path: ['to'], message: clinicCalendarErrors.closureTooLong },
    ]);
  });
});

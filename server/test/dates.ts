import { addDays, formatMediumDate, type IsoDate, todayIn } from '@doctors-portal/contract';
import { clinicInstant } from '../src/bookings/clock.js';

/**
 * The clinic's clock in the server's tests stands still at noon on Jan 1, 2031 in the clinic's
 * time zone (setup.ts sets it). Tests name their dates relative to it, never by year, so that
 * they keep their meaning if it moves: `clinicDay(61)` is two months ahead.
 */
export const TEST_NOW = new Date('2031-01-01T17:00:00Z');
/** The clinic's default time zone, which the tests run in. */
const CLINIC_TIME_ZONE = 'America/New_York';

const TODAY = todayIn(CLINIC_TIME_ZONE, TEST_NOW);

/** The clinic's date `offsetDays` after the test clock's today (before it when negative). */
export function clinicDay(offsetDays: number): IsoDate {
  return addDays(TODAY, offsetDays);
}

/** The same date as the API and the screens write it: 'Mar 3, 2031'. */
export function mediumDay(offsetDays: number): string {
  return formatMediumDate(clinicDay(offsetDays));
}

/**
 * The first date after `after` (by default the test clock's today) that falls on `monthDay`
 * ('02-29' for the next leap day, '03-01' for the next first of March).
 */
export function nextClinicDate(monthDay: string, after: IsoDate = TODAY): IsoDate {
  for (let day = addDays(after, 1), left = 4 * 366; left > 0; day = addDays(day, 1), left -= 1) {
    if (day.endsWith(`-${monthDay}`)) return day;
  }
  throw new Error(`No date falls on ${monthDay}`);
}

/**
 * The instant at which the clinic's wall clock shows `time` ('14:10', 24-hour) on `date`, as
 * a test spying on the booking clock needs it; daylight saving time included.
 */
export function clinicTime(date: IsoDate, time: string): Date {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return clinicInstant(CLINIC_TIME_ZONE, date, hours * 60 + minutes);
}

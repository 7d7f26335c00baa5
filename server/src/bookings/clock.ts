import { addDays, formatsByZone, type IsoDate, slotStartMinutes } from '@doctors-portal/contract';

/**
 * Where the booking rules read the time. Tests replace `now` (vi.spyOn(clock, 'now')) to stand
 * at a known moment in the clinic's day without faking the timers the rest of the app uses.
 */
export const clock = { now: (): Date => new Date() };

/** A moment as the clinic sees it: its calendar date and the minutes since its midnight. */
export interface ClinicMoment {
  today: IsoDate;
  minutes: number;
  /** The clinic's time zone, and the moment itself (milliseconds since the epoch). */
  timeZone: string;
  at: number;
}

/**
 * The date and the time of day in a time zone. Every booking call needs the clinic's moment, and
 * building the formatter was an eighth of GET /api/available's time (docs/performance.md).
 */
const momentFormat = formatsByZone('en-GB', {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

const MINUTES_A_DAY = 24 * 60;
const DAY_MS = MINUTES_A_DAY * 60_000;

/** The last moment worked out, reused for calls within the same second and time zone. */
let last: { timeZone: string; second: number; moment: ClinicMoment } | null = null;

/** `now` in the clinic's time zone, e.g. { today: '2030-01-05', minutes: 870 } at 2:30 PM. */
export function clinicMoment(timeZone: string, now: Date): ClinicMoment {
  const second = Math.floor(now.getTime() / 1000);
  if (last && last.second === second && last.timeZone === timeZone) return last.moment;
  const moment = readClock(timeZone, now.getTime());
  last = { timeZone, second, moment };
  return moment;
}

/** The clinic's clock at an instant, worked out afresh. */
function readClock(timeZone: string, at: number): ClinicMoment {
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of momentFormat(timeZone).formatToParts(at)) part[type] = value;
  return {
    today: `${part.year}-${part.month}-${part.day}` as IsoDate,
    minutes: Number(part.hour) * 60 + Number(part.minute),
    timeZone,
    at,
  };
}

/** Past this many, a map of worked-out answers below starts again from empty. */
const MAX_KEPT = 10_000;

/**
 * The instants worked out on the days the clinic's clock changes, by time zone and wall clock:
 * each cost two readings of the clock. The answers never change.
 */
const instants = new Map<string, number>();

/**
 * Each date the clinic's clock was read for, by time zone: its midnight as if it were UTC (the
 * wall clock counted in milliseconds), and the zone's offset from UTC when it holds the whole day,
 * or null on a day the clock changes (not 24 hours long). A booking asks for instants on its own
 * date and times (its start, its reminder, its cancellation notice): one reading serves them all.
 */
const days = new Map<string, { midnight: number; offset: number | null }>();

/**
 * `date`'s midnight as if it were UTC. Read by its numbers, not as ISO text: the last date's
 * next midnight shows as '10000-01-01', which `Date.parse` refuses (working out Dec 31, 9999's
 * length read it, and failed).
 */
function wallMidnight(date: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, day);
}

/**
 * The instant at which the clinic's wall clock shows `wall` (milliseconds), worked out afresh.
 * A time the clock skips is read past the jump, by the time skipped (2:30 AM, the night it goes
 * from 2:00 to 3:00, is 3:30 AM, as JavaScript's Temporal reads it), so a day whose midnight is
 * skipped begins at its first instant; a time it shows twice (the hour it goes back) is the
 * first of the two. Both alike in every zone, east or west of UTC.
 */
function exactInstant(timeZone: string, wall: number): number {
  const wallAt = (at: number) => {
    const shown = readClock(timeZone, at);
    return wallMidnight(shown.today) + shown.minutes * 60_000;
  };
  // The zone's offset from UTC at an instant (east positive), read from the clinic's clock.
  const offsetAt = (at: number) => wallAt(at) - Math.floor(at / 60_000) * 60_000;
  // Once more at the guess, for a day whose offset differs from the one at the guess (DST).
  const instant = wall - offsetAt(wall - offsetAt(wall));
  const shown = wallAt(instant);
  // Skipped: the guess landed before the jump, where the clock shows an earlier time.
  if (shown < wall) return instant + (wall - shown);
  if (shown > wall) return instant;
  // Shown twice: the offset from three hours before, if it also shows `wall`, is the first time.
  const earlier = wall - offsetAt(instant - 3 * 3_600_000);
  return earlier < instant && wallAt(earlier) === wall ? earlier : instant;
}

/** What `days` keeps of `date`, read now if it was not. */
function dayOf(timeZone: string, date: IsoDate) {
  const key = `${timeZone} ${date}`;
  let day = days.get(key);
  if (!day) {
    const midnight = wallMidnight(date);
    const start = exactInstant(timeZone, midnight);
    const end = exactInstant(timeZone, midnight + DAY_MS);
    day = { midnight, offset: end - start === DAY_MS ? midnight - start : null };
    if (days.size >= MAX_KEPT) days.clear();
    days.set(key, day);
  }
  return day;
}

/**
 * The instant at which the clinic's wall clock shows `minutes` past midnight on `date`, daylight
 * saving time included: e.g. where the clinic's day begins. Minutes outside the day count into
 * the days before or after it.
 */
export function clinicInstant(timeZone: string, date: IsoDate, minutes = 0): Date {
  const daysAway = Math.floor(minutes / MINUTES_A_DAY);
  const { midnight, offset } = dayOf(timeZone, daysAway === 0 ? date : addDays(date, daysAway));
  const wall = midnight + (minutes - daysAway * MINUTES_A_DAY) * 60_000;
  if (offset !== null) return new Date(wall - offset);
  const key = `${timeZone} ${wall}`;
  let instant = instants.get(key);
  if (instant === undefined) {
    instant = exactInstant(timeZone, wall);
    if (instants.size >= MAX_KEPT) instants.clear();
    instants.set(key, instant);
  }
  return new Date(instant);
}

/** Whether the clinic's day `date` is shorter than 24 hours: its clocks go forward that night. */
export function clockSkipsOn(timeZone: string, date: IsoDate): boolean {
  const length =
    clinicInstant(timeZone, addDays(date, 1)).getTime() - clinicInstant(timeZone, date).getTime();
  return length < DAY_MS;
}

/**
 * Whether the clinic's clock never shows the slot's start on `date`: it falls in the hour a change
 * to summer time skips (2:30 AM on the night New York's clocks go forward). Such a slot is
 * neither offered nor booked that day, rather than booked an hour off.
 */
export function skippedOnClock(timeZone: string, date: IsoDate, slot: string): boolean {
  const start = slotStartMinutes(slot);
  if (start === null || !clockSkipsOn(timeZone, date)) return false;
  const shown = readClock(timeZone, clinicInstant(timeZone, date, start).getTime());
  return shown.today !== date || shown.minutes !== start;
}

/**
 * Whether a slot on a date can no longer be booked or cancelled: the date is past, or it is
 * today and the slot's start time has come. A label that names no time counts as started
 * today (there is no knowing when it begins), and as open on later dates.
 */
export function hasStarted(date: IsoDate, slot: string, moment: ClinicMoment): boolean {
  if (date !== moment.today) return date < moment.today;
  const start = slotStartMinutes(slot);
  return start === null || start <= moment.minutes;
}

/**
 * Whether a slot on a date starts within `minutes` of the moment (or has started): the clinic's
 * minimum notice for a booking, its cancellation notice for a patient's cancellation. Counted in
 * real time, so that across a daylight-saving change (the clinic's clock skips or repeats an
 * hour) 24 hours' notice is still 24 hours. With 0 minutes, the same as `hasStarted`.
 */
export function startsWithin(
  date: IsoDate,
  slot: string,
  moment: ClinicMoment,
  minutes: number,
): boolean {
  if (hasStarted(date, slot, moment)) return true;
  if (minutes <= 0) return false;
  const start = slotStartMinutes(slot);
  // A label without a time on a later date: there is no knowing, it stays open.
  if (start === null) return false;
  return clinicInstant(moment.timeZone, date, start).getTime() - moment.at < minutes * 60_000;
}

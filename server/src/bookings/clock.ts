import { type IsoDate, slotStartMinutes, todayIn } from '@doctors-portal/contract';

/**
 * Where the booking rules read the time. Tests replace `now` (vi.spyOn(clock, 'now')) to stand
 * at a known moment in the clinic's day without faking the timers the rest of the app uses.
 */
export const clock = { now: (): Date => new Date() };

/** A moment as the clinic sees it: its calendar date and the minutes since its midnight. */
export interface ClinicMoment {
  today: IsoDate;
  minutes: number;
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

function timeFormat(timeZone: string): Intl.DateTimeFormat {
  let format = timeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    timeFormats.set(timeZone, format);
  }
  return format;
}

/** `now` in the clinic's time zone, e.g. { today: '2030-01-05', minutes: 870 } at 2:30 PM. */
export function clinicMoment(timeZone: string, now: Date): ClinicMoment {
  const parts = timeFormat(timeZone).formatToParts(now);
  const hour = Number(parts.find((part) => part.type === 'hour')?.value);
  const minute = Number(parts.find((part) => part.type === 'minute')?.value);
  return { today: todayIn(timeZone, now), minutes: hour * 60 + minute };
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

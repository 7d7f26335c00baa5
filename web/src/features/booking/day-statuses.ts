import type { AvailableDay } from '@doctors-portal/contract';
import { localDateToIso } from './dates';

/** What a day's button adds to its name, by the day's status. */
const NOTES: Record<Exclude<AvailableDay['status'], 'closed' | 'open'>, string> = {
  full: ', fully booked',
  past: ', too late to book',
  'beyond-horizon': ', not yet open for booking',
};

/**
 * The calendar's view of a month's day statuses (`GET /api/available/month`), for local `Date`s
 * at midnight as react-day-picker passes them. A day nothing can be booked on (closed, past, or
 * beyond the booking horizon) is disabled; a full one stays selectable (its waitlist is offered)
 * and is marked. A day the answer does not cover (its month is loading) is neither.
 */
export function dayStatuses(days: readonly AvailableDay[]) {
  const byDate = new Map(days.map((day) => [day.date, day]));
  const dayOf = (date: Date) => byDate.get(localDateToIso(date));
  return {
    isUnbookable: (date: Date) => {
      const status = dayOf(date)?.status;
      return status !== undefined && status !== 'open' && status !== 'full';
    },
    isClosed: (date: Date) => dayOf(date)?.status === 'closed',
    isFull: (date: Date) => dayOf(date)?.status === 'full',
    /** What the day's button adds to its name: ', fully booked', ', clinic closed: {label}'. */
    noteOf: (date: Date): string => {
      const day = dayOf(date);
      if (!day || day.status === 'open') return '';
      return day.status === 'closed' ? `, clinic closed: ${day.label}` : NOTES[day.status];
    },
  };
}

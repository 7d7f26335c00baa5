import { formatMediumDate, type IsoDate } from '@doctors-portal/contract';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** 'Thursday, Jan 2, 2031': the weekday of the calendar date, whatever the browser's zone. */
export function dayHeading(date: IsoDate): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return `${WEEKDAYS[new Date(Date.UTC(year, month - 1, day)).getUTCDay()]}, ${formatMediumDate(date)}`;
}

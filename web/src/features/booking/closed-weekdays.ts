import { WEEKDAY_NAMES } from '@doctors-portal/contract';

/**
 * The weekly closed days beside the opening hours, from the clinic's opening days (0 = Sunday):
 * 'Closed on Sundays and Mondays', or null when it opens every day.
 */
export function closedWeekdays(openingDays: readonly number[]): string | null {
  const closed = WEEKDAY_NAMES.filter((_, day) => !openingDays.includes(day)).map(
    (name) => `${name}s`,
  );
  if (closed.length === 0) return null;
  const last = closed.pop();
  return `Closed on ${closed.length ? `${closed.join(', ')} and ${last}` : last}`;
}

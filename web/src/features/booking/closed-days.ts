import { addDays, type ClosedDate, type IsoDate, parseIsoDate } from '@doctors-portal/contract';
import { localDateToIso } from './dates';

/** The first and last dates of the month holding `date`. */
export function monthOf(date: IsoDate): { from: IsoDate; to: IsoDate } {
  const from = `${date.slice(0, 7)}-01` as IsoDate;
  const [year, month] = date.split('-').map(Number) as [number, number];
  const next =
    month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
  return { from, to: addDays(parseIsoDate(next) as IsoDate, -1) };
}

/**
 * The calendar's test for a closed day (a local `Date` at midnight, as react-day-picker passes
 * it), and the reason to read out with it: the closure's label or 'Closed on Sundays'.
 */
export function closedDays(closed: readonly ClosedDate[]) {
  const labels = new Map(closed.map((entry) => [entry.date, entry.label]));
  const labelOf = (date: Date): string | undefined => labels.get(localDateToIso(date));
  return { isClosed: (date: Date) => labelOf(date) !== undefined, labelOf };
}

import { type IsoDate, parseIsoDate } from '@doctors-portal/contract';

/**
 * The calendar works with local `Date`s at midnight; the portal with ISO calendar dates in the
 * clinic's time zone. These convert between the two by calendar fields only, so the browser's
 * own time zone never shifts a day.
 */
export function isoToLocalDate(iso: IsoDate): Date {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, day);
}

export function localDateToIso(date: Date): IsoDate {
  const text = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  const iso = parseIsoDate(text);
  if (!iso) throw new Error(`Not a calendar date: ${text}`);
  return iso;
}

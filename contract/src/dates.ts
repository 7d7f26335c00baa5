/**
 * Dates travel in the spec's medium format ('Jan 5, 2022') and are stored as ISO dates
 * ('2022-01-05'). These helpers are the only conversions between the two, and they never
 * depend on the machine's locale or time zone.
 */
declare const isoDateBrand: unique symbol;
/** A calendar date 'YYYY-MM-DD' that is known to exist. */
export type IsoDate = string & { readonly [isoDateBrand]: true };

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MEDIUM = /^([A-Z][a-z]{2}) (\d{1,2}), (\d{4})$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The last date an ISO date can name: the day after it has no 'YYYY-MM-DD'. */
export const LAST_DATE = '9999-12-31' as IsoDate;

function toIso(year: number, month: number, day: number): IsoDate | null {
  if (year < 1970 || year > 9999 || month < 1 || month > 12) return null;
  if (day < 1 || day > daysInMonth(year, month)) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}` as IsoDate;
}

/** 'Jan 5, 2022' → '2022-01-05'; null for anything malformed or impossible ('Feb 30, 2024'). */
export function parseMediumDate(text: string): IsoDate | null {
  const match = MEDIUM.exec(text.trim());
  if (!match) return null;
  const [, monthName, day, year] = match;
  const month = MONTHS.indexOf(monthName as string) + 1;
  return month === 0 ? null : toIso(Number(year), month, Number(day));
}

/** Validates an ISO date string; null when it is not a real calendar date. */
export function parseIsoDate(text: string): IsoDate | null {
  const match = ISO.exec(text);
  if (!match) return null;
  const [, year, month, day] = match;
  return toIso(Number(year), Number(month), Number(day));
}

/** '2022-01-05' → 'Jan 5, 2022'. */
export function formatMediumDate(date: IsoDate): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return `${MONTHS[month - 1]} ${day}, ${year}`;
}

/** The calendar date `days` after `date` (before it when negative). */
export function addDays(date: IsoDate, days: number): IsoDate {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const moved = new Date(Date.UTC(year, month - 1, day + days));
  return moved.toISOString().slice(0, 10) as IsoDate;
}

/**
 * A date formatter for each time zone, with these locale and options, built once per zone:
 * building an Intl.DateTimeFormat costs far more than using one (docs/performance.md).
 */
export function formatsByZone(
  locale: string,
  options: Omit<Intl.DateTimeFormatOptions, 'timeZone'>,
): (timeZone: string) => Intl.DateTimeFormat {
  const formats = new Map<string, Intl.DateTimeFormat>();
  return (timeZone) => {
    let format = formats.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
      formats.set(timeZone, format);
    }
    return format;
  };
}

// en-CA formats dates as YYYY-MM-DD.
const dayFormat = formatsByZone('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' });

/** The calendar date at `now` in the given IANA time zone (the clinic's 'today'). */
export function todayIn(timeZone: string, now: Date = new Date()): IsoDate {
  return dayFormat(timeZone).format(now) as IsoDate;
}

/** Whether the string names a time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Day numbers as JavaScript's Date#getDay counts them: 0 is Sunday, 6 is Saturday. Here, apart
 * from the calendar's schemas, so that the landing page can name closed days without loading zod.
 */
export const WEEKDAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

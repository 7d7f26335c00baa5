import { z } from 'zod';
import { type IsoDate, parseIsoDate } from './dates.js';

/**
 * `GET /api/available/month?month=YYYY-MM` (public): for every day of a month, whether a patient
 * can book anything, so that the booking calendar can disable and mark its days without asking
 * `GET /api/available` for each. A day's status agrees with that day's `GET /api/available`:
 * 'open' exactly when some treatment lists a slot there.
 */

/** A month as the query names it: '2031-01'. */
const MONTH = /^\d{4}-\d{2}$/;

export const availableMonthErrors = {
  month: 'Give the month as YYYY-MM, for example 2031-01.',
} as const;

/** A month's first and last dates; null for anything not a month 'YYYY-MM' (1970 to 9999). */
function monthRange(month: string): { from: IsoDate; to: IsoDate } | null {
  const from = MONTH.test(month) ? parseIsoDate(`${month}-01`) : null;
  if (!from) return null;
  const [year, number] = month.split('-').map(Number) as [number, number];
  // Day 0 of the next month is this month's last.
  const last = new Date(Date.UTC(year, number, 0)).getUTCDate();
  return { from, to: `${month}-${last}` as IsoDate };
}

/** The month of the query, 'YYYY-MM', decoded to itself with its first and last dates. */
export const availableMonthQuerySchema = z.object({
  month: z.string({ error: availableMonthErrors.month }).transform((month, context) => {
    const range = monthRange(month);
    if (range) return { month, ...range };
    context.issues.push({ code: 'custom', message: availableMonthErrors.month, input: month });
    return z.NEVER;
  }),
});

/**
 * What a patient can do on a day:
 * - `open`: some treatment has a free slot;
 * - `full`: the clinic opens and has slots still ahead, but every one is taken (the waitlist is
 *   offered there);
 * - `closed`: the clinic does not open (a weekly closed day or a closure; `label` says which);
 * - `past`: too late to book: before today in the clinic's time zone, or every slot of the day
 *   has started or falls within the clinic's minimum notice;
 * - `beyond-horizon`: further ahead than the clinic takes bookings (its booking horizon).
 */
export const availableDaySchema = z.union([
  z.object({
    /** An ISO date. */
    date: z.string(),
    status: z.literal('closed'),
    /** The closure's label, or the weekday's ('Closed on Sundays'). */
    label: z.string(),
  }),
  z.object({
    date: z.string(),
    status: z.enum(['open', 'full', 'past', 'beyond-horizon']),
  }),
]);
export type AvailableDay = z.infer<typeof availableDaySchema>;

export const availableMonthSchema = z.object({
  /** The month asked for, 'YYYY-MM'. */
  month: z.string(),
  /** Every day of the month, in date order. */
  days: z.array(availableDaySchema),
});
export type AvailableMonth = z.infer<typeof availableMonthSchema>;

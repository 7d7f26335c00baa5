import { z } from 'zod';
import { isoDateField } from './booking.js';
import { addDays, type IsoDate } from './dates.js';
import { dateRangeWithin, scheduleEntrySchema } from './schedule.js';
import { isPlainLine, showsSomething } from './validation.js';

/**
 * The clinic's calendar and booking rules (`/dashboard/clinic`): the weekly opening days, the
 * closures (holidays) and the rules a booking and a cancellation follow.
 */

/** The spec's default: the clinic opens every day. */
export const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6] as const;

/** The longest range `GET /api/clinic/calendar` answers at once, in days (both ends in). */
export const CALENDAR_MAX_DAYS = 366;
export const CLOSURE_LABEL_MAX = 80;

export const clinicCalendarErrors = {
  toBeforeFrom: 'The end date must not be before the start date.',
  calendarTooLong: `The calendar covers at most ${CALENDAR_MAX_DAYS} days at a time: pick a shorter range.`,
  noOpenDay: 'Keep at least one day of the week open.',
  repeatedDay: 'Each day of the week may be listed once.',
  closureTooLong: `A closure lasts at most ${CALENDAR_MAX_DAYS} days: add a longer one in parts.`,
  closureOver: 'Those days are already over: a closure must end today or later.',
  labelRequired: 'Give the closure a label, such as the holiday’s name.',
  labelTooLong: `Keep the label to ${CLOSURE_LABEL_MAX} characters.`,
  labelCharacters: 'The label must not contain line breaks, control or text-direction characters.',
} as const;

/** The weekday (0 = Sunday) of an ISO date. */
export function weekdayOf(date: IsoDate): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/** `PUT /api/clinic/opening-days`: the days of the week the clinic opens (0 = Sunday … 6). */
export const openingDaysSchema = z.object({
  days: z
    .array(
      z
        .number({ error: 'A day is a whole number from 0 (Sunday) to 6 (Saturday).' })
        .int('A day is a whole number from 0 (Sunday) to 6 (Saturday).')
        .min(0, 'A day is a whole number from 0 (Sunday) to 6 (Saturday).')
        .max(6, 'A day is a whole number from 0 (Sunday) to 6 (Saturday).'),
    )
    .min(1, clinicCalendarErrors.noOpenDay)
    .max(7, clinicCalendarErrors.repeatedDay)
    .refine((days) => new Set(days).size === days.length, clinicCalendarErrors.repeatedDay),
});
export type OpeningDays = z.infer<typeof openingDaysSchema>;

/**
 * `PUT /api/clinic/opening-days`' answer: the days, and the live bookings of the coming year
 * (booked or confirmed, not started) on the weekdays it closed, which stay until the clinic
 * cancels them.
 */
export const openingDaysChangeSchema = z.object({
  days: z.array(z.number().int()),
  bookings: z.array(scheduleEntrySchema),
});
export type OpeningDaysChange = z.infer<typeof openingDaysChangeSchema>;

/** `POST /api/closures`: the clinic is closed from `from` to `to` (ISO dates, both included). */
export const closureRequestSchema = z
  .object({
    from: isoDateField,
    to: isoDateField,
    label: z
      .string({ error: clinicCalendarErrors.labelRequired })
      .trim()
      .min(1, clinicCalendarErrors.labelRequired)
      .max(CLOSURE_LABEL_MAX, clinicCalendarErrors.labelTooLong)
      // Shown on the public calendar and the booking page: one line of visible text.
      .refine(isPlainLine, clinicCalendarErrors.labelCharacters)
      .refine(showsSomething, clinicCalendarErrors.labelRequired),
  })
  .superRefine(
    dateRangeWithin(CALENDAR_MAX_DAYS, {
      toBeforeFrom: clinicCalendarErrors.toBeforeFrom,
      tooLong: clinicCalendarErrors.closureTooLong,
    }),
  );
export type ClosureRequest = z.input<typeof closureRequestSchema>;

/** A closure as the API shows it. */
export const closureSchema = z.object({
  id: z.string(),
  /** ISO dates (response schemas hold no transforms). */
  from: z.string(),
  to: z.string(),
  label: z.string(),
  createdAt: z.string(),
});
export type Closure = z.infer<typeof closureSchema>;

/** A closure with the live bookings (booked or confirmed, not started) on its days. */
export const closureWithBookingsSchema = closureSchema.extend({
  bookings: z.array(scheduleEntrySchema),
});
export type ClosureWithBookings = z.infer<typeof closureWithBookingsSchema>;

/** `GET /api/clinic/calendar?from=&to=`: a range of ISO dates, at most a year. */
export const calendarQuerySchema = z.object({ from: isoDateField, to: isoDateField }).superRefine(
  dateRangeWithin(CALENDAR_MAX_DAYS, {
    toBeforeFrom: clinicCalendarErrors.toBeforeFrom,
    tooLong: clinicCalendarErrors.calendarTooLong,
  }),
);

/** A date the clinic is closed: a weekly closed day, or a closure with its label. */
export const closedDateSchema = z.object({
  /** An ISO date. */
  date: z.string(),
  reason: z.enum(['weekly', 'closure']),
  /** The closure's label, or the weekday's name ('Closed on Sundays'). */
  label: z.string(),
});
export type ClosedDate = z.infer<typeof closedDateSchema>;

export const clinicCalendarSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** The weekly opening days, 0 = Sunday … 6 = Saturday. */
  openingDays: z.array(z.number().int()),
  /** Every closed date in the range, in date order. */
  closed: z.array(closedDateSchema),
  /** Until how many hours before a visit its patient may cancel it (the cancellation policy). */
  cancellationNoticeHours: z.number().int(),
});
export type ClinicCalendar = z.infer<typeof clinicCalendarSchema>;

/** The limits of each rule: the same as the environment variables that set their defaults. */
export const RULE_LIMITS = {
  horizonDays: { min: 1, max: 36_500 },
  minNoticeMinutes: { min: 0, max: 43_200 },
  maxUnpaidBookings: { min: 1, max: 10_000 },
  cancellationNoticeHours: { min: 0, max: 720 },
  reminderLeadHours: { min: 1, max: 720 },
} as const;

const rule = (name: keyof typeof RULE_LIMITS, unit: string) => {
  const { min, max } = RULE_LIMITS[name];
  const error = `Enter a whole number of ${unit} from ${min} to ${max}.`;
  return z.number({ error }).int(error).min(min, error).max(max, error);
};

/** The booking rules, stored by the clinic; the environment's values until it sets them. */
export const bookingRulesSchema = z.object({
  /** How many days ahead a patient may book. */
  horizonDays: rule('horizonDays', 'days'),
  /** How long before a slot's start it stops being offered and booked. */
  minNoticeMinutes: rule('minNoticeMinutes', 'minutes'),
  /** How many upcoming unpaid bookings a patient may hold. */
  maxUnpaidBookings: rule('maxUnpaidBookings', 'bookings'),
  /** Until how long before the start a patient may cancel. */
  cancellationNoticeHours: rule('cancellationNoticeHours', 'hours'),
  /** How long before the start the reminder mail goes out. */
  reminderLeadHours: rule('reminderLeadHours', 'hours'),
});
export type BookingRulesInput = z.infer<typeof bookingRulesSchema>;

/** `GET /api/clinic/rules`: the rules in force, the environment's defaults, and whether set. */
export const clinicRulesSchema = z.object({
  rules: bookingRulesSchema,
  defaults: bookingRulesSchema,
  /** Whether the clinic has stored its own rules (false: the defaults apply). */
  stored: z.boolean(),
});
export type ClinicRules = z.infer<typeof clinicRulesSchema>;

/** Every date from `from` to `to`, both included. */
export function datesBetween(from: IsoDate, to: IsoDate): IsoDate[] {
  const dates: IsoDate[] = [];
  if (from > to) return dates;
  // Stopped at `to`, not past it: the day after the last date (9999-12-31) is no ISO date.
  for (let day = from; ; day = addDays(day, 1)) {
    dates.push(day);
    if (day === to) return dates;
  }
}

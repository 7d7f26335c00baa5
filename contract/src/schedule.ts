import { z } from 'zod';
import { BOOKING_STATUSES, type BookingStatus, bookingSchema, isoDateField } from './booking.js';
import { addDays, type IsoDate, parseIsoDate } from './dates.js';

/** The longest range the schedule and its CSV export answer at once, in days (both ends in). */
export const SCHEDULE_MAX_DAYS = 31;

/** The number of days from `from` to `to`, both included (0 or less when `to` is before it). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  const [a, b] = [from, to].map((date) => {
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    return Date.UTC(year, month - 1, day);
  }) as [number, number];
  return Math.round((b - a) / 86_400_000) + 1;
}

/**
 * The refinement of a range of ISO dates (`from` to `to`, both included) that lasts at most
 * `maxDays`: a `to` before `from`, or too far after it, is an issue on `to` with its message.
 */
export function dateRangeWithin(
  maxDays: number,
  errors: { toBeforeFrom: string; tooLong: string },
) {
  return <Range extends { from: IsoDate; to: IsoDate }>(
    range: Range,
    context: z.core.$RefinementCtx<Range>,
  ) => {
    // A date that is not real has its own issue already: the range says nothing of it.
    if (parseIsoDate(range.from) === null || parseIsoDate(range.to) === null) return;
    const days = daysBetween(range.from, range.to);
    if (days < 1) {
      context.addIssue({ code: 'custom', message: errors.toBeforeFrom, path: ['to'] });
    } else if (days > maxDays) {
      context.addIssue({ code: 'custom', message: errors.tooLong, path: ['to'] });
    }
  };
}

export const scheduleErrors = {
  toBeforeFrom: 'The end date must not be before the start date.',
  tooLong: `The schedule covers at most ${SCHEDULE_MAX_DAYS} days at a time: pick a shorter range.`,
} as const;

/**
 * `GET /api/schedule` and `GET /api/schedule.csv`: the clinic's bookings from `from` to `to`
 * (ISO dates in the clinic's time zone, both included, at most 31 days), optionally only one
 * treatment's, or only the patients whose name or email contains `q`.
 */
export const scheduleQuerySchema = z
  .object({
    from: isoDateField,
    to: isoDateField,
    q: z.string().trim().max(200).optional(),
    treatmentId: z.string().trim().max(100).optional(),
  })
  .superRefine(dateRangeWithin(SCHEDULE_MAX_DAYS, scheduleErrors));
export type ScheduleQuery = z.input<typeof scheduleQuerySchema>;

/**
 * One booking on the clinic's schedule: the booking as the API shows it (its date in the medium
 * format), the patient's account and how many of their visits were no-shows, and for a
 * cancelled one when and why.
 */
export const scheduleEntrySchema = bookingSchema.omit({ cancellable: true }).extend({
  patientId: z.string().nullable(),
  /** How many of this patient's bookings, on any date, are marked no-show. */
  noShows: z.number().int(),
  cancelledAt: z.string().nullable(),
  /** 'clinic' when the clinic cancelled it, 'patient' when its patient did. */
  cancelledBy: z.enum(['clinic', 'patient']).nullable(),
});
export type ScheduleEntry = z.infer<typeof scheduleEntrySchema>;

/** The answer of `GET /api/schedule`: every booking of the range in slot order, day by day. */
export const scheduleSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** The clinic's today, in its time zone. */
  today: z.string(),
  bookings: z.array(scheduleEntrySchema),
});
export type Schedule = z.infer<typeof scheduleSchema>;

/** The fewest and most characters a search of the schedule's patients takes; its most answers. */
export const SCHEDULE_SEARCH_MIN = 2;
export const SCHEDULE_SEARCH_MAX = 200;
export const SCHEDULE_SEARCH_LIMIT = 100;

/** `GET /api/schedule/search?q=…`: part of a patient's name or email, 2 to 200 characters. */
export const scheduleSearchQuerySchema = z.object({
  q: z
    .string({
      error: `q is required: ${SCHEDULE_SEARCH_MIN} to ${SCHEDULE_SEARCH_MAX} characters.`,
    })
    .trim()
    .min(
      SCHEDULE_SEARCH_MIN,
      `Search for at least ${SCHEDULE_SEARCH_MIN} characters of a name or email.`,
    )
    .max(SCHEDULE_SEARCH_MAX, `Search for at most ${SCHEDULE_SEARCH_MAX} characters.`),
});
export type ScheduleSearchQuery = z.input<typeof scheduleSearchQuerySchema>;

/**
 * The answer of `GET /api/schedule/search`: the bookings, live and cancelled, on any date, whose
 * patient's name or email contains `q` (the trimmed search), upcoming ones first (from the
 * clinic's today, soonest first) then past ones (most recent first), each day in slot order; at
 * most 100, and `more` when others match too.
 */
export const scheduleSearchSchema = z.object({
  q: z.string(),
  bookings: z.array(scheduleEntrySchema),
  more: z.boolean(),
});
export type ScheduleSearch = z.infer<typeof scheduleSearchSchema>;

/** The statuses staff set from the schedule (`PATCH /api/booking/{id}/status`). */
export const VISIT_STATUSES = ['arrived', 'completed', 'no_show'] as const;
export type VisitStatus = (typeof VISIT_STATUSES)[number];

/**
 * Which statuses each visit status may be set from: a booked or confirmed patient arrives or
 * does not come; an arrived one completes the visit; one marked no-show who turns up late
 * arrives after all. Nothing goes to or from 'cancelled' this way (the clinic's cancellation
 * has its own route, with a reason, a refund and a mail).
 */
export const VISIT_STATUS_FROM: Record<VisitStatus, readonly BookingStatus[]> = {
  arrived: ['booked', 'confirmed', 'no_show'],
  completed: ['arrived'],
  no_show: ['booked', 'confirmed'],
};

/** The visit statuses a booking in `status` may be moved to, in the order a visit runs. */
export function nextVisitStatuses(status: BookingStatus): VisitStatus[] {
  return VISIT_STATUSES.filter((next) => VISIT_STATUS_FROM[next].includes(status));
}

/** Whether the clinic may still cancel a booking in this status (with a reason). */
export function clinicMayCancel(status: BookingStatus): boolean {
  return status === 'booked' || status === 'confirmed';
}

/** How each status reads on screen and in the CSV. */
export const STATUS_LABELS: Record<BookingStatus, string> = {
  booked: 'Booked',
  confirmed: 'Confirmed',
  arrived: 'Arrived',
  completed: 'Completed',
  no_show: 'No-show',
  cancelled: 'Cancelled',
};

/** `PATCH /api/booking/{id}/status`: any status may be asked for; the server says which it allows. */
export const visitStatusRequestSchema = z.object({
  status: z.enum(BOOKING_STATUSES, {
    error: `status must be one of ${BOOKING_STATUSES.join(', ')}`,
  }),
});
export type VisitStatusRequest = z.input<typeof visitStatusRequestSchema>;

export const CANCEL_REASON_MAX = 500;

/** `POST /api/booking/{id}/cancel`: the clinic cancels a booking, saying why to its patient. */
export const clinicCancelRequestSchema = z.object({
  reason: z
    .string({ error: 'Please give a reason for the cancellation.' })
    .trim()
    .min(1, 'Please give a reason for the cancellation.')
    .max(CANCEL_REASON_MAX, `The reason must be at most ${CANCEL_REASON_MAX} characters.`),
});
export type ClinicCancelRequest = z.input<typeof clinicCancelRequestSchema>;

/** The first day (Sunday, as the booking calendar starts its weeks) of the week of `date`. */
export function weekStart(date: IsoDate): IsoDate {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return addDays(date, -weekday);
}

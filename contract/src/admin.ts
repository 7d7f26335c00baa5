import { z } from 'zod';
import { isoDateField, mediumDateField } from './booking.js';
import { messages } from './messages.js';
import { heldSlotSchema } from './treatments.js';
import { emailField, fieldError, nameField } from './validation.js';

/** A user as the admin list shows it (spec section 3: `Role` is 'Admin' for admins). */
export const userSchema = z.object({
  _id: z.string(),
  email: z.string(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
  Role: z.literal('Admin').optional(),
  emailVerified: z.boolean(),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

/** `GET /api/users?limit=&offset=`: one page of users, oldest first; the total is in `X-Total-Count`. */
export const usersQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const USERS_PAGE_SIZE = 50;

/** Day numbers as Date#getDay counts them: 0 is Sunday, 6 is Saturday. */
const ALL_WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;

/** The most treatments, and dates off, one doctor's record holds. */
export const DOCTOR_TREATMENTS_MAX = 50;
export const DOCTOR_DAYS_OFF_MAX = 400;

export const doctorFieldErrors = {
  weekday: 'A work day is a whole number from 0 (Sunday) to 6 (Saturday).',
  repeatedWeekday: 'Each day of the week may be listed once.',
  repeatedTreatment: 'Each treatment may be listed once.',
  tooManyTreatments: `A doctor performs at most ${DOCTOR_TREATMENTS_MAX} treatments.`,
  tooManyDaysOff: `Keep at most ${DOCTOR_DAYS_OFF_MAX} dates off: remove past ones first.`,
  nothingToChange:
    'Send at least one of name, specialty, image, treatmentIds, workDays or daysOff.',
} as const;

/**
 * A doctor (spec section 3); `image` is a URL the portal's own image upload returned. Beyond the
 * spec's fields: the treatments the doctor performs (by id, the specialty's first), the weekdays
 * they work (0 = Sunday … 6) and their dates off ('YYYY-MM-DD', in order).
 */
export const doctorSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  specialty: z.string(),
  image: z.string(),
  treatmentIds: z.array(z.string()),
  workDays: z.array(z.number().int()),
  daysOff: z.array(z.string()),
});
export type Doctor = z.infer<typeof doctorSchema>;

const treatmentIdsField = z
  .array(z.string().trim().min(1, 'A treatment id is required.').max(100))
  .max(DOCTOR_TREATMENTS_MAX, doctorFieldErrors.tooManyTreatments)
  .refine((ids) => new Set(ids).size === ids.length, doctorFieldErrors.repeatedTreatment);

const workDaysField = z
  .array(
    z
      .number({ error: doctorFieldErrors.weekday })
      .int(doctorFieldErrors.weekday)
      .min(0, doctorFieldErrors.weekday)
      .max(6, doctorFieldErrors.weekday),
  )
  .max(ALL_WEEKDAYS.length, doctorFieldErrors.repeatedWeekday)
  .refine((days) => new Set(days).size === days.length, doctorFieldErrors.repeatedWeekday);

const daysOffField = z
  .array(isoDateField)
  .max(DOCTOR_DAYS_OFF_MAX, doctorFieldErrors.tooManyDaysOff);

/** What a doctor does and when, beyond the spec's fields (Add Doctor and `PATCH`). */
const doctorHoursFields = {
  treatmentIds: treatmentIdsField.optional(),
  workDays: workDaysField.optional(),
  daysOff: daysOffField.optional(),
};

/** A specialty is one of the clinic's treatments' names, which are at most as long. */
const SPECIALTY_MAX_LENGTH = 100;
const SPECIALTY_TOO_LONG = `Specialty must be ${SPECIALTY_MAX_LENGTH} characters or shorter`;

/** The add-doctor form (spec section 5); the photo is checked as a file before upload. */
export const doctorFormSchema = z.object({
  name: nameField,
  email: emailField(),
  specialty: z
    .string({ error: fieldError('Specialty is Required') })
    .min(1, 'Specialty is Required')
    .max(SPECIALTY_MAX_LENGTH, SPECIALTY_TOO_LONG),
});

const imageField = z
  .string({ error: fieldError(messages.imageRequired) })
  .min(1, messages.imageRequired)
  .max(500);

/**
 * `POST /api/doctor`: the spec's fields, and optionally the treatments (the specialty's is
 * always among them), the work days (default: every day) and the dates off.
 */
export const newDoctorSchema = doctorFormSchema.extend({
  image: imageField,
  ...doctorHoursFields,
});
export type NewDoctor = z.infer<typeof newDoctorSchema>;

/**
 * `PATCH /api/doctor/{id}`: any of the doctor's fields but the email. A list replaces the one
 * stored; the specialty's treatment is always among the treatments.
 */
export const doctorUpdateSchema = z
  .object({
    name: nameField.optional(),
    specialty: z
      .string()
      .trim()
      .min(1, 'Specialty is Required')
      .max(SPECIALTY_MAX_LENGTH, SPECIALTY_TOO_LONG)
      .optional(),
    image: imageField.optional(),
    ...doctorHoursFields,
  })
  .refine(
    (update) => Object.values(update).some((value) => value !== undefined),
    doctorFieldErrors.nothingToChange,
  );
export type DoctorUpdate = z.input<typeof doctorUpdateSchema>;

/**
 * The 409 of deleting a doctor who still holds upcoming bookings (booked, confirmed or arrived,
 * from the clinic's today on): those bookings, by date; cancel them first.
 */
export const doctorBookedSchema = z.object({
  statusCode: z.literal(409),
  error: z.string(),
  message: z.string(),
  reason: z.literal('doctor-booked'),
  bookings: z.array(heldSlotSchema),
});
export type DoctorBooked = z.infer<typeof doctorBookedSchema>;

/**
 * `PATCH /api/doctor/{id}`'s answer: the doctor, and their upcoming bookings (booked, confirmed
 * or arrived, from the clinic's today on) on days the doctor is now away (a day off, a weekday
 * not worked) or of treatments they no longer perform. They stay with the doctor until the clinic
 * moves or cancels them.
 */
export const doctorChangeSchema = doctorSchema.extend({ bookings: z.array(heldSlotSchema) });
export type DoctorChange = z.infer<typeof doctorChangeSchema>;

/**
 * `GET /api/doctors/available`: a treatment's slot on a date, the date in the spec's medium
 * format ('Jan 5, 2031') as `GET /api/available` takes it.
 */
export const availableDoctorsQuerySchema = z.object({
  treatmentId: z
    .string({ error: fieldError('Treatment is Required') })
    .trim()
    .min(1)
    .max(100),
  date: mediumDateField,
  slot: z
    .string({ error: fieldError('Slot is Required') })
    .min(1, 'Slot is Required')
    .max(100),
});
export type AvailableDoctorsQuery = z.input<typeof availableDoctorsQuerySchema>;

/** A doctor free for a slot, as the booking modal offers them. */
export const availableDoctorSchema = z.object({
  _id: z.string(),
  name: z.string(),
  image: z.string(),
});
export type AvailableDoctor = z.infer<typeof availableDoctorSchema>;

/**
 * `POST /api/doctor/{id}/calendar-feed` answers a doctor's new secret calendar feed URL
 * (iCalendar, `GET` on it answers text/calendar); any earlier URL of the doctor stops working.
 */
export const calendarFeedSchema = z.object({ url: z.string() });
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

/** `POST /api/image` answers like the spec's image host. */
export const imageUploadResultSchema = z.object({
  success: z.literal(true),
  data: z.object({ url: z.string() }),
});

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

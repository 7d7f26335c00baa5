import { z } from 'zod';
import { AGE_RANGE, bookingDoctorSchema, isPhoneNumber, mediumDateField } from './booking.js';
import { messages } from './messages.js';

/**
 * What became of a visit in the patient's history: seen, missed, cancelled by the patient or by
 * the clinic, or simply past (its day is gone and the clinic recorded nothing more).
 */
export const HISTORY_STATUSES = [
  'completed',
  'no_show',
  'cancelled_by_patient',
  'cancelled_by_clinic',
  'past',
] as const;
export type HistoryStatus = (typeof HISTORY_STATUSES)[number];

/** How the history screen names each status. */
export const historyStatusLabels: Record<HistoryStatus, string> = {
  completed: 'Completed',
  no_show: 'No-show',
  cancelled_by_patient: 'Cancelled by you',
  cancelled_by_clinic: 'Cancelled by the clinic',
  past: 'Past',
};

/**
 * One visit of `GET /api/booking/history`: the caller's bookings dated before the clinic's
 * today and their cancelled ones, the latest first; the date in the spec's medium format.
 */
export const historyEntrySchema = z.object({
  _id: z.string(),
  date: mediumDateField,
  slot: z.string(),
  treatment: z.string(),
  /** The doctor the visit was with, as the booking recorded them; null without one. */
  doctor: bookingDoctorSchema.nullable(),
  status: z.enum(HISTORY_STATUSES),
  price: z.number(),
  paid: z.boolean(),
  refunded: z.boolean(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** What a patient types to remove an account that has no password (Google sign-in only). */
export const DELETE_CONFIRMATION = 'DELETE';

/** What a wrong current password is told, removing the account or changing the password. */
export const WRONG_CURRENT_PASSWORD = 'That is not your current password.';

/** `DELETE /api/account`: the current password, or the typed confirmation without one. */
export const accountRemovalSchema = z
  .object({
    password: z.string().max(128).optional(),
    confirmation: z.string().max(32).optional(),
  })
  .strict();
export type AccountRemoval = z.infer<typeof accountRemovalSchema>;

/** The answer to `DELETE /api/account`. */
export const accountRemovedSchema = z.object({
  deletedCount: z.number(),
  cancelledBookings: z.number(),
});

/**
 * The phone on a patient's account (Better Auth's `phone` field, `POST /api/auth/update-user`):
 * optional, so empty (or null) clears it; otherwise a number the booking form would take.
 */
export const accountPhoneField = z
  .preprocess(
    (value) => (value === null ? '' : value),
    z
      .string({ error: messages.phoneInvalid })
      .trim()
      .max(20, messages.phoneInvalid)
      .refine((value) => value === '' || isPhoneNumber(value), messages.phoneInvalid),
  )
  .transform((value) => value || null);

/**
 * A form's text of digits as the number it spells, blank as null; any other value as it is
 * ('0x1E' or '30.5' stays text, refused as no whole number).
 */
function textAsNumber(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text === '') return null;
  return /^\d+$/.test(text) ? Number(text) : text;
}

/**
 * The age on a patient's account (Better Auth's `age` field, `POST /api/auth/update-user`):
 * optional, so empty (or null) clears it; otherwise a whole number the booking form would take,
 * refused with its message. A form's text ('34') is read as the number it spells.
 */
export const accountAgeField = z.preprocess(
  textAsNumber,
  z
    .number({ error: messages.ageInvalid })
    .int(messages.ageInvalid)
    .min(AGE_RANGE.min, messages.ageInvalid)
    .max(AGE_RANGE.max, messages.ageInvalid)
    .nullable(),
);

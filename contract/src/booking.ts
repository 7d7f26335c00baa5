import { z } from 'zod';
import { formatMediumDate, type IsoDate, parseIsoDate, parseMediumDate } from './dates.js';
import { messages } from './messages.js';
import { fieldError } from './validation.js';

/** A treatment as `GET /api/available` answers it: only its free slots, the price in dollars. */
export const availableTreatmentSchema = z.object({
  _id: z.string(),
  name: z.string(),
  slots: z.array(z.string()),
  price: z.number(),
});
export type AvailableTreatment = z.infer<typeof availableTreatmentSchema>;

const isoDateValue = z.custom<IsoDate>(
  (value) => typeof value === 'string' && parseIsoDate(value) === value,
  { error: 'Expected a date in the form 2022-01-05' },
);

const MEDIUM_DATE_FORM = "Provide a real date in the form 'Jan 5, 2022'";

/**
 * A booking date: the spec's medium format on the wire ('Jan 5, 2022'), an `IsoDate` inside
 * ('2022-01-05'). Decoding a request (the server's validation) or a response (the web's fetchers)
 * gives the IsoDate; encoding (the server's serialisation) gives the medium text back. These are
 * the only conversions a booking date goes through on each side.
 */
export const mediumDateField = z.codec(
  z.string({ error: fieldError('Date is Required', MEDIUM_DATE_FORM) }),
  isoDateValue,
  {
    decode: (medium, context) => {
      const date = parseMediumDate(medium);
      if (date) return date;
      context.issues.push({ code: 'custom', message: MEDIUM_DATE_FORM, input: medium });
      return z.NEVER;
    },
    encode: (date) => formatMediumDate(date),
  },
);

/** A date in the ISO form ('2022-01-05') that exists on the calendar, e.g. in a query string. */
const ISO_DATE_FORM = 'Provide a real date in the form 2022-01-05';

export const isoDateField = z
  .string({ error: fieldError('Date is Required', ISO_DATE_FORM) })
  .refine((value) => parseIsoDate(value) !== null, { error: ISO_DATE_FORM })
  .transform((value) => value as IsoDate);

export const PHONE_PATTERN = /^\+?[\d\s().-]{7,20}$/;
/** A phone number as the portal takes one: digits with the usual punctuation, at least seven. */
export const isPhoneNumber = (value: string): boolean =>
  PHONE_PATTERN.test(value) && (value.match(/\d/g)?.length ?? 0) >= 7;
export const AGE_RANGE = { min: 0, max: 120 } as const;

/**
 * An age as a form or a client sends it: a number, or text of digits (spaces around allowed).
 * Blank text, null, NaN (an empty number input) or anything not a scalar is no age, never age 0;
 * other text ('abc', '0x1E', '30.5') is left as it is, to be refused as not a whole number.
 */
function ageInput(value: unknown): unknown {
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : value;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  return /^\d+$/.test(text) ? Number(text) : text;
}

/** The fields the patient fills in the booking modal (spec: slot, phone and age are required). */
export const bookingFormSchema = z.object({
  slot: z.string({ error: fieldError(messages.slotRequired) }).min(1, messages.slotRequired),
  phone: z
    .string({ error: fieldError(messages.phoneRequired, messages.phoneInvalid) })
    .trim()
    .min(1, messages.phoneRequired)
    .refine(isPhoneNumber, { error: messages.phoneInvalid }),
  age: z.preprocess(
    ageInput,
    z
      .number({
        error: (issue) => (issue.input === undefined ? messages.ageRequired : messages.ageInvalid),
      })
      .int(messages.ageInvalid)
      .min(AGE_RANGE.min, messages.ageInvalid)
      .max(AGE_RANGE.max, messages.ageInvalid),
  ),
});
export type BookingFormInput = z.input<typeof bookingFormSchema>;

/**
 * `POST /api/booking`, the spec's booking request. The server trusts only the treatment id,
 * date, slot, phone and age; name, email, treatment name and price come from its own records.
 */
export const bookingRequestSchema = bookingFormSchema.extend({
  treatmentId: z
    .string({ error: fieldError('Treatment is Required') })
    .min(1, 'Treatment is Required')
    .max(100),
  date: mediumDateField,
  treatment: z.string().max(200).optional(),
  price: z.number().optional(),
  patientMail: z.string().max(254).optional(),
  patientName: z.string().max(200).optional(),
  /**
   * The doctor the patient chose (`GET /api/doctors/available`); absent or null: any doctor who
   * performs the treatment and is free then, picked by the server.
   */
  doctorId: z.string().min(1).max(100).nullish(),
});
export type BookingRequest = z.input<typeof bookingRequestSchema>;

/**
 * `POST /api/booking/{id}/reschedule`: the booking's new date (the spec's medium format, as in a
 * booking request) and slot of the same treatment, and optionally the doctor (as in a booking).
 */
export const rescheduleRequestSchema = z.object({
  date: mediumDateField,
  slot: z
    .string({ error: fieldError(messages.slotRequired) })
    .min(1, messages.slotRequired)
    .max(100),
  doctorId: z.string().min(1).max(100).nullish(),
});
export type RescheduleRequest = z.input<typeof rescheduleRequestSchema>;

/** Where a visit stands. A cancelled booking stays on record and frees its slot. */
export const BOOKING_STATUSES = [
  'booked',
  'confirmed',
  'arrived',
  'completed',
  'no_show',
  'cancelled',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Money given back through the payment provider, by the provider's refund id ('re_…'). */
export const refundSchema = z.object({ id: z.string() });
export type Refund = z.infer<typeof refundSchema>;

/** The doctor a booking is with, as booked (the name stays if the doctor is later removed). */
export const bookingDoctorSchema = z.object({ _id: z.string(), name: z.string() });
export type BookingDoctor = z.infer<typeof bookingDoctorSchema>;

/**
 * A booking as the API shows it (spec section 3); `date` in the medium format, `price` in dollars.
 * Beyond the spec's fields: its `status`, and whether its patient may `cancel` it now (the
 * server's rule: not paid, not cancelled, not started), so that a screen offers only what the
 * server allows; for a booking the clinic cancelled, the reason it gave and the refund of its
 * payment, if it had one.
 */
export const bookingSchema = z.object({
  _id: z.string(),
  patientName: z.string(),
  patientMail: z.string(),
  date: mediumDateField,
  slot: z.string(),
  treatment: z.string(),
  treatmentId: z.string(),
  price: z.number(),
  phone: z.string(),
  age: z.number(),
  paid: z.boolean(),
  transactionId: z.string().nullable(),
  status: z.enum(BOOKING_STATUSES),
  cancellable: z.boolean(),
  cancelReason: z.string().nullable(),
  refund: refundSchema.nullable(),
  /**
   * The doctor the visit is with; null for a treatment no doctor performs (one chair). The
   * server always sends it; it is optional here only so that bookings made before it decode.
   */
  doctor: bookingDoctorSchema.nullable().optional(),
});
export type Booking = z.infer<typeof bookingSchema>;

/**
 * The answer to `POST /api/booking`. Success: 201 with the stored booking. The patient already
 * holds this treatment on this date: 409, `reason: 'patient'`, and the existing booking's date and
 * slot (the spec's conflict). The patient holds another treatment at an overlapping time: 409,
 * `reason: 'overlap'`, naming that booking. Someone else took the slot first: 409,
 * `reason: 'slot'`.
 */
export const bookingCreatedSchema = z.object({ success: z.literal(true), booking: bookingSchema });
export const bookingRefusedSchema = z.object({
  success: z.literal(false),
  reason: z.enum(['patient', 'overlap', 'slot']),
  message: z.string(),
  booking: z.object({ date: mediumDateField, slot: z.string(), treatment: z.string() }).optional(),
});
export const bookingResultSchema = z.discriminatedUnion('success', [
  bookingCreatedSchema,
  bookingRefusedSchema,
]);
export type BookingResult = z.infer<typeof bookingResultSchema>;

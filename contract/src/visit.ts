import { z } from 'zod';
import { BOOKING_STATUSES, bookingDoctorSchema, mediumDateField } from './booking.js';

/** What a one-tap link from a confirmation or reminder mail does to its booking. */
export const VISIT_LINK_ACTIONS = ['confirm', 'reschedule', 'cancel'] as const;
export type VisitLinkAction = (typeof VISIT_LINK_ACTIONS)[number];

/** The answers of `/api/visit/{token}` when a link cannot be used, as the patient reads them. */
export const visitLinkMessages = {
  invalid: 'This link is not valid.',
  expired: 'This link has expired.',
  used: 'This link has already been used.',
  moved:
    'This visit has been moved since this mail was sent: please use the links in the latest mail.',
  cancelled: 'This visit has been cancelled.',
  closed: 'This visit can no longer be changed online.',
} as const;

/** The visit a link is for, as its page shows it (no sign-in: nothing beyond the visit). */
export const visitLinkBookingSchema = z.object({
  id: z.string(),
  treatmentId: z.string(),
  treatment: z.string(),
  date: mediumDateField,
  slot: z.string(),
  doctor: bookingDoctorSchema.nullable(),
  status: z.enum(BOOKING_STATUSES),
  paid: z.boolean(),
  /** Whether its patient may still cancel it online (as `cancellable` of a booking). */
  cancellable: z.boolean(),
});

/** `GET /api/visit/{token}`: what the link does, to which visit, and the cancellation policy. */
export const visitLinkSchema = z.object({
  action: z.enum(VISIT_LINK_ACTIONS),
  booking: visitLinkBookingSchema,
  policy: z.string(),
});
export type VisitLink = z.infer<typeof visitLinkSchema>;

/**
 * A POST through a link: the visit as it is now; for a cancellation, whether its payment was
 * refunded.
 */
export const visitLinkOutcomeSchema = z.object({
  booking: visitLinkBookingSchema,
  refunded: z.boolean(),
});
export type VisitLinkOutcome = z.infer<typeof visitLinkOutcomeSchema>;

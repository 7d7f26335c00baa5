import { z } from 'zod';
import { bookingRequestSchema, mediumDateField } from './booking.js';

/** `POST /api/waitlist`: the treatment and date, named as in a booking request. */
export const waitlistRequestSchema = bookingRequestSchema.pick({ treatmentId: true, date: true });

/** One of the patient's waitlist entries; `date` in the spec's medium format. */
export const waitlistEntrySchema = z.object({
  id: z.string(),
  treatmentId: z.string(),
  treatment: z.string(),
  date: mediumDateField,
  /** ISO time the patient joined: the list is served in this order. */
  joinedAt: z.string(),
});
export type WaitlistEntry = z.output<typeof waitlistEntrySchema>;

export const waitlistSchema = z.object({ entries: z.array(waitlistEntrySchema) });

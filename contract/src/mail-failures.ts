import { z } from 'zod';

/**
 * A message the portal has failed to send (`GET /api/mail/failures`, administrators): what and
 * to whom, how often it was tried and the last error, and when it is tried next (ISO time;
 * null once the sender has given up on it).
 */
export const mailFailureSchema = z.object({
  id: z.string(),
  kind: z.string(),
  to: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
export type MailFailure = z.infer<typeof mailFailureSchema>;

/** `GET /api/mail/failures`: the failed messages, newest first. */
export const mailFailuresSchema = z.object({ failures: z.array(mailFailureSchema) });
export type MailFailures = z.infer<typeof mailFailuresSchema>;

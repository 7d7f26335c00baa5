import { z } from 'zod';

/** Public facts about the clinic, set by configuration and shown on the landing page. */
export const clinicSchema = z.object({
  name: z.string(),
  phone: z.string(),
  address: z.string(),
  email: z.string(),
  hours: z.string(),
  timeZone: z.string(),
  /** Whether 'continue with google' can work: the server has a Google client configured. */
  signInWithGoogle: z.boolean(),
});
export type Clinic = z.infer<typeof clinicSchema>;

export const serviceSchema = z.object({ _id: z.string(), name: z.string() });
export type Service = z.infer<typeof serviceSchema>;

import { type Clinic, OPENING_HOURS } from '@doctors-portal/contract';
import type { Config } from '../config/env.js';

/**
 * The clinic's name, contact details, opening hours and time zone, as the portal tells them, and
 * whether Google sign-in is offered (the sign-in screens show its button only then).
 */
export function clinicDetails(config: Config): Clinic {
  return { ...config.clinic, hours: OPENING_HOURS, signInWithGoogle: config.auth.google !== null };
}

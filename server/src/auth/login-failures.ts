import type { RateLimitRule } from './rate-limit-store.js';

/**
 * Failed sign-ins per account: after this many in the window, sign-in for that address pauses
 * until the window ends. Short enough that an attacker cannot keep a patient out for long.
 */
export const LOGIN_FAILURES: RateLimitRule = { window: 10 * 60, max: 8 };

/** The rate-limit key of an account's failed sign-ins (its address in lower case). */
export const loginFailuresKey = (email: string) => `login-failures:${email.trim().toLowerCase()}`;

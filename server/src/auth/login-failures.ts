import type { RateLimitRule, RateLimitStore } from './rate-limit-store.js';

/**
 * Wrong passwords per account: after this many in the window, every check of the account's
 * password (signing in, changing the password, removing the account) pauses until the window
 * ends. Short enough that an attacker cannot keep a patient out for long.
 */
export const LOGIN_FAILURES: RateLimitRule = { window: 10 * 60, max: 8 };

/** The rate-limit key of an account's wrong passwords (its address in lower case). */
export const loginFailuresKey = (email: string) => `login-failures:${email.trim().toLowerCase()}`;

const inMinutes = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

/** What a locked-out account is told: at sign-in, and where a signed-in one types its password. */
export const lockoutMessages = {
  signIn: (retryAfter: number) =>
    `Too many failed sign-ins for this account. Try again in ${inMinutes(retryAfter)}, or reset your password.`,
  password: (retryAfter: number) =>
    `Too many wrong passwords for this account. Try again in ${inMinutes(retryAfter)}, or reset your password.`,
} as const;

/** The seconds before an account may have its password checked again; null when it may now. */
export async function lockedOutFor(store: RateLimitStore, email: string): Promise<number | null> {
  const { allowed, retryAfter } = await store.peek(loginFailuresKey(email), LOGIN_FAILURES);
  return allowed ? null : (retryAfter ?? LOGIN_FAILURES.window);
}

/** Counts a wrong password against the account. */
export async function countWrongPassword(store: RateLimitStore, email: string): Promise<void> {
  await store.consume(loginFailuresKey(email), LOGIN_FAILURES);
}

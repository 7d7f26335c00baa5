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

/**
 * Counts an attempt at the account's password before the password is checked: the seconds to
 * wait when the account has had too many, null when this attempt may go ahead. Counted first,
 * not once the answer is known: attempts sent all at once each passed a check made before any
 * of them had been counted, and so all had their password checked. A refused attempt stays
 * counted (the account is paused anyway); `settlePasswordAttempt` says what an allowed one was.
 */
export async function startPasswordAttempt(
  store: RateLimitStore,
  email: string,
): Promise<number | null> {
  const { allowed, retryAfter } = await store.consume(loginFailuresKey(email), LOGIN_FAILURES);
  return allowed ? null : (retryAfter ?? LOGIN_FAILURES.window);
}

/**
 * What an attempt allowed by `startPasswordAttempt` turned out to be: a wrong password keeps its
 * count; a right one at sign-in clears the account's count; anything else (a refused request, a
 * password not checked, a right one elsewhere) gives its count back.
 */
export async function settlePasswordAttempt(
  store: RateLimitStore,
  email: string,
  outcome: 'wrong' | 'signed-in' | 'other',
): Promise<void> {
  if (outcome === 'signed-in') await store.reset(loginFailuresKey(email));
  else if (outcome === 'other') await store.release(loginFailuresKey(email));
}

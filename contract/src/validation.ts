import { z } from 'zod';
import { messages } from './messages.js';

/**
 * The spec's email rule: lowercase letters and digits, '@', lowercase letters, a dot and
 * 2 to 3 letters. Like the form library it came from, the pattern is tested unanchored,
 * so 'jane.doe@mail.com' passes on its 'doe@mail.com' part.
 */
export const EMAIL_PATTERN = /[a-z0-9]+@[a-z]+\.[a-z]{2,3}/;
/** The add-doctor form describes the same rule with letters of either case. */
export const DOCTOR_EMAIL_PATTERN = /[A-Za-z0-9]+@[A-Za-z]+\.[A-Za-z]{2,3}/;

export const PASSWORD_MIN_LENGTH = 6;
/** A bound against abuse (hashing megabytes), far above any real password. */
export const PASSWORD_MAX_LENGTH = 128;

export const emailField = (pattern: RegExp = EMAIL_PATTERN) =>
  z
    .string({ error: messages.emailRequired })
    .trim()
    .min(1, messages.emailRequired)
    .max(254, messages.emailInvalid)
    .regex(pattern, messages.emailInvalid);

export const passwordField = z
  .string({ error: messages.passwordRequired })
  .min(1, messages.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, messages.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, `Must be ${PASSWORD_MAX_LENGTH} characters or shorter`);

export const nameField = z
  .string({ error: messages.nameRequired })
  .trim()
  .min(1, messages.nameRequired)
  .max(100, 'Name must be 100 characters or shorter');

/** The login form (spec section 5). */
export const loginSchema = z.object({ email: emailField(), password: passwordField });
export type LoginInput = z.infer<typeof loginSchema>;

/** The sign-up form (spec section 5). */
export const signUpSchema = z.object({
  name: nameField,
  email: emailField(),
  password: passwordField,
});
export type SignUpInput = z.infer<typeof signUpSchema>;

/** Choosing a new password from a reset link: typed twice. */
export const newPasswordSchema = z
  .object({ password: passwordField, confirm: z.string() })
  .refine((input) => input.password === input.confirm, {
    message: 'The two passwords differ',
    path: ['confirm'],
  });
export type NewPasswordInput = z.infer<typeof newPasswordSchema>;

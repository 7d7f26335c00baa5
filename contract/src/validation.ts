import { z } from 'zod';
import { messages } from './messages.js';

/** One label of a domain name: letters and digits, with hyphens inside but not at either end. */
const DOMAIN_LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';

/**
 * The portal's email rule, checked on the lower-cased address (docs/decisions/012): a local part
 * of letters, digits, '.', '+', '_' and '-' (no dot at either end or twice in a row), '@', one or
 * more domain labels and a top-level part of 2 to 3 letters. The spec's letter (lowercase
 * letters and digits, '@', lowercase letters, a dot, 2 to 3 letters) refused real addresses
 * such as 'bob@my-clinic.com'; its intent, a plausible address, is kept.
 */
export const EMAIL_PATTERN = new RegExp(
  `^(?=[^@]{1,64}@)[a-z0-9_+-]+(?:\\.[a-z0-9_+-]+)*@(?:${DOMAIN_LABEL}\\.)+[a-z]{2,3}$`,
);

/**
 * The rule the portal used before: the spec's letter, tested unanchored as the form library it
 * came from did, so 'ana@clinic.dental' passed on its 'ana@clinic.den' part. Accounts made under
 * it must still be able to log in, so the login form accepts what either rule accepts.
 */
export const FORMER_EMAIL_PATTERN = /[a-z0-9]+@[a-z]+\.[a-z]{2,3}/;

/**
 * A field's `error`: `missing` when the field is absent (or null), `otherwise` for any other
 * failure that has no message of its own (a list or a number where text belongs, text too
 * long), zod's own when not given. A bare message would answer all of those 'is Required'.
 */
export function fieldError(missing: string, otherwise?: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined || issue.input === null ? missing : otherwise;
}

const EMAIL_MAX_LENGTH = 254;

const emailText = () =>
  z
    .string({ error: fieldError(messages.emailRequired, messages.emailInvalid) })
    .trim()
    .toLowerCase()
    .min(1, messages.emailRequired)
    .max(EMAIL_MAX_LENGTH, messages.emailInvalid);

/**
 * An email address for a new account or doctor (sign-up, add doctor): lower-cased, then checked
 * against `EMAIL_PATTERN`. The parsed value is the lower-cased address, which is what is stored.
 */
export const emailField = () => emailText().regex(EMAIL_PATTERN, messages.emailInvalid);

/** An email address to log in with: the current rule or the former one (see above). */
export const loginEmailField = () =>
  emailText().refine(
    (email) => EMAIL_PATTERN.test(email) || FORMER_EMAIL_PATTERN.test(email),
    messages.emailInvalid,
  );

export const PASSWORD_MIN_LENGTH = 6;
/** A bound against abuse (hashing megabytes), far above any real password. */
export const PASSWORD_MAX_LENGTH = 128;

export const passwordField = z
  .string({ error: fieldError(messages.passwordRequired) })
  .min(1, messages.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, messages.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, `Must be ${PASSWORD_MAX_LENGTH} characters or shorter`);

export const NAME_MAX_LENGTH = 100;

/**
 * Characters no single line of text may contain: C0 and C1 controls (with DEL, and so line
 * breaks), and the bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E,
 * U+200F, U+202A-U+202E, U+2066-U+2069), which reorder the text around a name or a subject
 * wherever it is shown: bookings, mail subjects, admin tables.
 */
const LINE_FORBIDDEN =
  '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const LINE_FORBIDDEN_CHARACTER = new RegExp(`[${LINE_FORBIDDEN}]`);
const LINE_FORBIDDEN_CHARACTERS = new RegExp(`[${LINE_FORBIDDEN}]`, 'g');
/** The same, but for text of several lines: line breaks and tabs are its own. */
const TEXT_FORBIDDEN_CHARACTER = new RegExp(
  `[${LINE_FORBIDDEN.replace('\\u0000-\\u001f', '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f')}]`,
);

/** Whether a single line of text is free of control and text-direction characters. */
export const isPlainLine = (text: string) => !LINE_FORBIDDEN_CHARACTER.test(text);
/** Whether text of several lines is free of control (but line breaks and tabs) and text-direction characters. */
export const isPlainText = (text: string) => !TEXT_FORBIDDEN_CHARACTER.test(text);

/**
 * Characters that show nothing: white space, format characters (zero-width spaces and joiners
 * among them), the Hangul fillers and the blank braille pattern.
 */
const INVISIBLE_CHARACTERS = /[\s\p{Cf}\u115f\u1160\u3164\uffa0\u2800]/gu;
/** Whether text shows anything: a name of zero-width spaces is no name. */
export const showsSomething = (text: string) => text.replace(INVISIBLE_CHARACTERS, '') !== '';

export const NAME_FORBIDDEN_MESSAGE = 'Name must not contain control or text-direction characters';

/** A person's name, wherever one is set: sign-up, profile updates, doctors. */
export const nameField = z
  .string({ error: fieldError(messages.nameRequired) })
  .trim()
  .min(1, messages.nameRequired)
  .max(NAME_MAX_LENGTH, `Name must be ${NAME_MAX_LENGTH} characters or shorter`)
  .refine(isPlainLine, NAME_FORBIDDEN_MESSAGE)
  .refine(showsSomething, messages.nameRequired);

/** `text` cut to at most `max` UTF-16 units, never between the two halves of one character. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

/**
 * A name that `nameField` accepts, made from one an identity provider gave (which is not the
 * person's to fix on our form): forbidden characters removed, cut to the longest name allowed,
 * and the email address's local part when nothing is left.
 */
export function cleanName(name: unknown, email: string): string {
  const clean = (text: string) =>
    cut(
      text.replace(LINE_FORBIDDEN_CHARACTERS, '').replace(/\s+/g, ' ').trim(),
      NAME_MAX_LENGTH,
    ).trim();
  const fromProvider = typeof name === 'string' ? clean(name) : '';
  if (showsSomething(fromProvider)) return fromProvider;
  return clean(email.slice(0, Math.max(0, email.lastIndexOf('@'))) || email) || 'Patient';
}

/** The login form (spec section 5). */
export const loginSchema = z.object({ email: loginEmailField(), password: passwordField });
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

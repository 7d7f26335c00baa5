import commonPasswords from './common-passwords.json' with { type: 'json' };

/**
 * The 10,000 most common passwords of six characters or more, lower-cased, from the
 * "10 million password list" (Mark Burnett, via SecLists, MIT licence).
 */
const common = new Set<string>(commonPasswords);

export const COMMON_PASSWORD_MESSAGE =
  'This password is one of the most common ones and easy to guess. Please choose another.';

export function isCommonPassword(password: string): boolean {
  return common.has(password.toLowerCase());
}

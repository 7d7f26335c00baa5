/**
 * Business constants. This module imports nothing, so the web app's first chunk can use it
 * without pulling in zod (the package is marked free of side effects).
 */

/** The clinic's opening hours, as the spec states them. */
export const OPENING_HOURS = 'Sat - Fri, 10:00 AM to 10:00 PM';
/** The same hours in minutes after midnight: a slot within them starts and ends between. */
export const OPENING_MINUTES = { from: 10 * 60, until: 22 * 60 } as const;

/** The longest subject and message the Contact Us form sends (its fields stop there too). */
export const CONTACT_SUBJECT_MAX = 200;
export const CONTACT_MESSAGE_MAX = 5000;

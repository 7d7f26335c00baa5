/**
 * The contract's schema of the clinic's calendar, in a module of its own: it is imported on
 * demand (clinic-calendar.ts), so zod loads with the first calendar request and stays out of the
 * landing page's first JavaScript (scripts/check-bundle.mjs), as the availability call's does.
 */
export { clinicCalendarSchema } from '@doctors-portal/contract';

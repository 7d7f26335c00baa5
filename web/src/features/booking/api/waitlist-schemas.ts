/**
 * The contract's schemas the waitlist calls need, in a module of their own: imported on demand
 * (waitlist.ts), so the treatment cards' 'Join the waitlist' keeps zod out of the landing page's
 * first JavaScript (scripts/check-bundle.mjs).
 */
export { mediumDateField, waitlistSchema } from '@doctors-portal/contract';

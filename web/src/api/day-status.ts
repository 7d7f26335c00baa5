import type { AvailableDay } from '@doctors-portal/contract';

/**
 * Why nothing can be booked on a day whatever is free, by its status on the month's calendar
 * (`GET /api/available/month`); null for a day that takes bookings.
 */
export function unbookableReason(status: AvailableDay | undefined): string | null {
  switch (status?.status) {
    case 'closed':
      return `The clinic is closed on this day (${status.label}). Please pick another date on the calendar.`;
    case 'past':
      return 'This day can no longer be booked. Please pick a later date on the calendar.';
    case 'beyond-horizon':
      return 'This day is further ahead than the clinic takes bookings. Please pick an earlier date on the calendar.';
    default:
      return null;
  }
}

import type { IsoDate } from '@doctors-portal/contract';

/**
 * The query keys of the booking data, shared by the features that read or change it (booking
 * it, paying it): availability is cached per day (an IsoDate), a patient's own bookings per
 * address.
 */
export const bookingKeys = {
  /** Every day's availability: invalidate this after any booking or cancellation. */
  available: ['available'] as const,
  availableOn: (date: IsoDate | null) => ['available', date] as const,
  /** The doctors free for a treatment's slot on a day (read again with the day's availability). */
  availableDoctors: (treatmentId: string, date: IsoDate, slot: string) =>
    ['available', date, 'doctors', treatmentId, slot] as const,
  /** Every patient's bookings list. */
  bookings: ['bookings'] as const,
  bookingsOf: (email: string) => ['bookings', email] as const,
};

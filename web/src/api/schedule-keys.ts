import type { IsoDate } from '@doctors-portal/contract';

/**
 * The query keys of the clinic's schedule, shared by the schedule and the changes that move its
 * bookings (the clinic's cancellation, from the schedule or from a closure).
 */
export const scheduleKeys = {
  /** Every range's schedule: invalidate this after any change to a booking. */
  all: ['schedule'] as const,
  range: (query: { from: IsoDate; to: IsoDate; treatmentId: string; q: string }) =>
    ['schedule', query.from, query.to, query.treatmentId, query.q] as const,
};

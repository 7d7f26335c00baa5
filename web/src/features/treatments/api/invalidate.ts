import type { QueryClient } from '@tanstack/react-query';
import { bookingKeys } from '../../../api/booking-keys';
import { treatmentsKey } from '../../../api/treatments';

/**
 * After a change to the treatments: the catalogue (the treatments screen and the schedule's
 * filter), the services (the doctors' specialties) and every day's availability are read again.
 */
export function invalidateTreatments(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: treatmentsKey }),
    queryClient.invalidateQueries({ queryKey: ['services'] }),
    queryClient.invalidateQueries({ queryKey: bookingKeys.available }),
  ]);
}

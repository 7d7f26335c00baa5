import type { QueryClient } from '@tanstack/react-query';
import { bookingKeys } from '../../../api/booking-keys';
import { treatmentKeys } from './keys';

/**
 * After a change to the treatments: the catalogue, the services (the schedule's filter and the
 * doctors' specialties) and every day's availability are read again.
 */
export function invalidateTreatments(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: treatmentKeys.all }),
    queryClient.invalidateQueries({ queryKey: ['services'] }),
    queryClient.invalidateQueries({ queryKey: bookingKeys.available }),
  ]);
}

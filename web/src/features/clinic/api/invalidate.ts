import type { QueryClient } from '@tanstack/react-query';
import { bookingKeys } from '../../../api/booking-keys';
import { clinicCalendarKeys } from '../../../api/clinic-calendar';
import { clinicKeys } from './keys';

/**
 * After a change to the opening days or the closures: the calendar, the closures and every
 * day's availability are read again.
 */
export function invalidateClinicCalendar(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: clinicCalendarKeys.all }),
    queryClient.invalidateQueries({ queryKey: clinicKeys.closures }),
    queryClient.invalidateQueries({ queryKey: bookingKeys.available }),
  ]);
}

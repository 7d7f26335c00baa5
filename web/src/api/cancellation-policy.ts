import {
  CANCELLATION_CLOSED,
  type Clinic,
  type ClinicCalendar,
  cancellationPolicy,
  type IsoDate,
  todayIn,
} from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { clinicQuery } from './clinic';
import { clinicCalendarQuery } from './clinic-calendar';

/**
 * The cancellation policy's sentence (contract `cancellationPolicy`) from what the page has: the
 * clinic's phone (in the served page) and the notice (in the calendar's answer); null until both
 * are there. For a booking the server no longer lets the patient cancel (`cancellable: false`,
 * booked or moved inside the notice), it adds so, and the number to call.
 */
export function policyOf(
  clinic: Pick<Clinic, 'phone'> | undefined,
  calendar: Pick<ClinicCalendar, 'cancellationNoticeHours'> | undefined,
  cancellable = true,
): string | null {
  if (!clinic || !calendar) return null;
  const policy = cancellationPolicy(calendar.cancellationNoticeHours, clinic.phone);
  return cancellable ? policy : `${policy} ${CANCELLATION_CLOSED}`;
}

/** The policy for a page without the booking calendar (the payment page): today's answer. */
export function useCancellationPolicy(cancellable = true): string | null {
  const clinic = useQuery(clinicQuery);
  // Asked only once the clinic's day is known; the placeholder date is never fetched.
  const today = clinic.data ? todayIn(clinic.data.timeZone) : ('2000-01-01' as IsoDate);
  const calendar = useQuery({
    ...clinicCalendarQuery(today, today),
    enabled: clinic.data !== undefined,
  });
  return policyOf(clinic.data, calendar.data, cancellable);
}

import {
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
 * are there.
 */
export function policyOf(
  clinic: Pick<Clinic, 'phone'> | undefined,
  calendar: Pick<ClinicCalendar, 'cancellationNoticeHours'> | undefined,
): string | null {
  if (!clinic || !calendar) return null;
  return cancellationPolicy(calendar.cancellationNoticeHours, clinic.phone);
}

/** The policy for a page without the booking calendar (the payment page): today's answer. */
export function useCancellationPolicy(): string | null {
  const clinic = useQuery(clinicQuery);
  // Asked only once the clinic's day is known; the placeholder date is never fetched.
  const today = clinic.data ? todayIn(clinic.data.timeZone) : ('2000-01-01' as IsoDate);
  const calendar = useQuery({
    ...clinicCalendarQuery(today, today),
    enabled: clinic.data !== undefined,
  });
  return policyOf(clinic.data, calendar.data);
}

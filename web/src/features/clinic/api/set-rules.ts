import {
  type BookingRulesInput,
  type ClinicRules,
  clinicRulesSchema,
} from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bookingKeys } from '../../../api/booking-keys';
import { clinicCalendarKeys } from '../../../api/clinic-calendar';
import { api, decodeAnswer } from '../../../lib/api-client';
import { clinicKeys } from './keys';

/** `PUT /api/clinic/rules` (administrators): stores every booking rule. */
export async function setRules(rules: BookingRulesInput): Promise<ClinicRules> {
  const answer = await api<unknown>('/clinic/rules', { method: 'PUT', body: { ...rules } });
  return decodeAnswer(clinicRulesSchema, answer);
}

/**
 * Stores the rules; the screen shows the answer at once, and the availability (the minimum
 * notice), the patient's bookings and the calendar (the cancellation notice) are read again.
 */
export function useSetRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setRules,
    onSuccess: (answer) => queryClient.setQueryData(clinicKeys.rules, answer),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: clinicKeys.rules }),
        queryClient.invalidateQueries({ queryKey: bookingKeys.available }),
        queryClient.invalidateQueries({ queryKey: bookingKeys.bookings }),
        // The calendar's answer carries the cancellation notice the policy states.
        queryClient.invalidateQueries({ queryKey: clinicCalendarKeys.all }),
      ]),
  });
}

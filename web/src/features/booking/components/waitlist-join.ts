import {
  type AvailableTreatment,
  formatMediumDate,
  type IsoDate,
  waitlistMessages,
} from '@doctors-portal/contract';
import { useCallback } from 'react';
import { toast } from 'react-toastify/unstyled';
import { reasonOf, SessionEndedError } from '../../../lib/api-client';
import { useJoinWaitlist } from '../api/waitlist';

/** The search parameter that resumes a join after signing in: the treatment's id. */
export const WAIT_PARAM = 'wait';

/**
 * Joins the waitlist of a treatment on `day` for the signed-in patient, and says how it went in
 * a toast: the confirmation, or the server's reason (a slot freed meanwhile, already waiting).
 */
export function useWaitlistJoin(day: IsoDate | null) {
  const joining = useJoinWaitlist();
  const { mutateAsync } = joining;
  return useCallback(
    async (treatment: AvailableTreatment) => {
      if (!day) return;
      try {
        await mutateAsync({ treatmentId: treatment._id, date: day });
        toast.success(waitlistMessages.joined(treatment.name, formatMediumDate(day)));
      } catch (error) {
        if (error instanceof SessionEndedError) return;
        toast.error(reasonOf(error, 'You could not join the waitlist. Please try again.'));
      }
    },
    [day, mutateAsync],
  );
}

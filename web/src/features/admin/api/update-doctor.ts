import { type DoctorChange, type DoctorUpdate, doctorChangeSchema } from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { adminKeys } from './keys';

/**
 * `PATCH /api/doctor/{id}` (administrators): changes any of a doctor's name, specialty, photo,
 * treatments, work days and days off (a list given replaces the stored one); answers the doctor,
 * and the doctor's upcoming bookings left on days they are now away or of treatments they no
 * longer perform.
 */
export async function updateDoctor(input: {
  id: string;
  change: DoctorUpdate;
}): Promise<DoctorChange> {
  const answer = await api<unknown>(`/doctor/${encodeURIComponent(input.id)}`, {
    method: 'PATCH',
    body: { ...input.change },
  });
  return decodeAnswer(doctorChangeSchema, answer);
}

/** Changes a doctor; the doctors list is read again whatever the answer. */
export function useUpdateDoctor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDoctor,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.doctors }),
  });
}

import type { NewDoctor } from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** `POST /api/doctor` (admin): `insertedId` on success; a doctor with the same email answers 409. */
export const addDoctor = (doctor: NewDoctor) =>
  api<{ insertedId?: string }>('/doctor', { method: 'POST', body: { ...doctor } });

/** Adds a doctor; the doctors list is read again once one is added. */
export function useAddDoctor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addDoctor,
    onSuccess: ({ insertedId }) => {
      if (insertedId) void queryClient.invalidateQueries({ queryKey: adminKeys.doctors });
    },
  });
}

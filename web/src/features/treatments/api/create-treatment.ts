import { type NewTreatment, type Treatment, treatmentSchema } from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { invalidateTreatments } from './invalidate';

/** `POST /api/treatments` (administrators): adds a treatment; 409 when its name is taken. */
export async function createTreatment(treatment: NewTreatment): Promise<Treatment> {
  const answer = await api<unknown>('/treatments', { method: 'POST', body: { ...treatment } });
  return decodeAnswer(treatmentSchema, answer);
}

/** Adds a treatment; the catalogue, services and availability are read again after. */
export function useCreateTreatment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTreatment,
    onSettled: () => invalidateTreatments(queryClient),
  });
}

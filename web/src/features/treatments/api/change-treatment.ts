import {
  type HeldSlot,
  slotsHeldSchema,
  type Treatment,
  type TreatmentChange,
  treatmentSchema,
} from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, decodeAnswer } from '../../../lib/api-client';
import { invalidateTreatments } from './invalidate';

/**
 * `PATCH /api/treatments/{id}` (administrators): changes a treatment's fields, retires it
 * (`retired: true`) or offers it again (`retired: false`).
 */
export async function changeTreatment(input: {
  id: string;
  change: TreatmentChange;
}): Promise<Treatment> {
  const answer = await api<unknown>(`/treatments/${encodeURIComponent(input.id)}`, {
    method: 'PATCH',
    body: { ...input.change },
  });
  return decodeAnswer(treatmentSchema, answer);
}

/** The bookings a refused change listed: slot times it would remove that they hold. */
export function heldSlotsOf(error: unknown): HeldSlot[] | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = slotsHeldSchema.safeParse(error.body);
  return body.success ? body.data.bookings : null;
}

/** Changes a treatment; the catalogue, services and availability are read again after. */
export function useChangeTreatment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeTreatment,
    onSettled: () => invalidateTreatments(queryClient),
  });
}

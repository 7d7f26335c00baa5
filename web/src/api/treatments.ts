import { type Treatment, treatmentSchema } from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { treatmentKeys } from './keys';

/** `GET /api/treatments` (administrators): every treatment, retired ones too, in display order. */
export async function getTreatments(signal?: AbortSignal): Promise<Treatment[]> {
  const answer = await api<unknown>('/treatments', { signal });
  return decodeAnswer(treatmentSchema.array(), answer);
}

export const treatmentsQuery = queryOptions({
  queryKey: treatmentKeys.all,
  queryFn: ({ signal }) => getTreatments(signal),
});

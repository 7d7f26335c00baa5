import { type Treatment, treatmentSchema } from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api, decodeAnswer } from '../lib/api-client';

/** The query key of the clinic's catalogue, retired treatments included. */
export const treatmentsKey = ['treatments'] as const;

/**
 * `GET /api/treatments` (administrators): every treatment, retired ones too, in display order.
 * The treatments screen edits them; the schedule narrows its list to one, retired or not, since
 * a retired treatment's bookings stay on the schedule.
 */
export async function getTreatments(signal?: AbortSignal): Promise<Treatment[]> {
  const answer = await api<unknown>('/treatments', { signal });
  return decodeAnswer(treatmentSchema.array(), answer);
}

export const treatmentsQuery = queryOptions({
  queryKey: treatmentsKey,
  queryFn: ({ signal }) => getTreatments(signal),
});

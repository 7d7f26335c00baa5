import { type Service, serviceSchema } from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { scheduleKeys } from './keys';

/** `GET /api/service` (public): the clinic's treatments, which the schedule can be narrowed to. */
export async function getTreatments(signal?: AbortSignal): Promise<Service[]> {
  const answer = await api<unknown>('/service', { signal, anonymous: true });
  return decodeAnswer(serviceSchema.array(), answer);
}

export const treatmentsQuery = queryOptions({
  queryKey: scheduleKeys.treatments,
  queryFn: ({ signal }) => getTreatments(signal),
  staleTime: 60 * 60 * 1000,
});

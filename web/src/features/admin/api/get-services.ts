import { type Service, serviceSchema } from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** `GET /api/service` (public): the clinic's services, the specialties a doctor can have. */
export async function getServices(signal?: AbortSignal): Promise<Service[]> {
  const answer = await api<unknown>('/service', { signal, anonymous: true });
  return decodeAnswer(serviceSchema.array(), answer);
}

export const servicesQuery = queryOptions({
  queryKey: adminKeys.services,
  queryFn: ({ signal }) => getServices(signal),
  staleTime: 60 * 60 * 1000,
});

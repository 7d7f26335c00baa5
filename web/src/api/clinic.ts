import type { Clinic } from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api-client';

/** The clinic's contact details and opening hours; they change rarely. */
export const clinicQuery = queryOptions({
  queryKey: ['clinic'],
  queryFn: ({ signal }) => api<Clinic>('/clinic', { signal }),
  staleTime: 60 * 60 * 1000,
});

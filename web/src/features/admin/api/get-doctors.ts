import { type Doctor, doctorSchema } from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** `GET /api/doctor` (admin): every doctor. */
export async function getDoctors(signal?: AbortSignal): Promise<Doctor[]> {
  const answer = await api<unknown>('/doctor', { signal });
  return decodeAnswer(doctorSchema.array(), answer);
}

export const doctorsQuery = queryOptions({
  queryKey: adminKeys.doctors,
  queryFn: ({ signal }) => getDoctors(signal),
});

import { type Doctor, doctorSchema } from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api, decodeAnswer } from '../lib/api-client';

/** The query key of the clinic's doctors: invalidate it after adding, changing or deleting one. */
export const doctorsKey = ['doctors'] as const;

/**
 * `GET /api/doctor` (administrators): every doctor, by name, with the treatments they perform,
 * their work days and days off. Manage Doctor edits them; the schedule filters and groups by them.
 */
export async function getDoctors(signal?: AbortSignal): Promise<Doctor[]> {
  const answer = await api<unknown>('/doctor', { signal });
  return decodeAnswer(doctorSchema.array(), answer);
}

export const doctorsQuery = queryOptions({
  queryKey: doctorsKey,
  queryFn: ({ signal }) => getDoctors(signal),
});

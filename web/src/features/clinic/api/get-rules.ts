import { type ClinicRules, clinicRulesSchema } from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { clinicKeys } from './keys';

/** `GET /api/clinic/rules` (administrators): the rules in force, their defaults, whether stored. */
export async function getRules(signal?: AbortSignal): Promise<ClinicRules> {
  const answer = await api<unknown>('/clinic/rules', { signal });
  return decodeAnswer(clinicRulesSchema, answer);
}

export const rulesQuery = queryOptions({
  queryKey: clinicKeys.rules,
  queryFn: ({ signal }) => getRules(signal),
});

import type { Clinic } from '@doctors-portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../lib/api-client';

/**
 * The details the server wrote into the page (its production build): the first render has them,
 * with no request. Vite's development server sends the page without them.
 */
function clinicInPage(): Clinic | undefined {
  if (typeof document === 'undefined') return undefined;
  const json = document.getElementById('clinic-data')?.textContent;
  if (!json) return undefined;
  try {
    return JSON.parse(json) as Clinic;
  } catch {
    return undefined;
  }
}

/** The clinic's contact details and opening hours; they change only with the configuration. */
export const clinicQuery = queryOptions({
  queryKey: ['clinic'],
  queryFn: ({ signal }) => api<Clinic>('/clinic', { signal }),
  initialData: clinicInPage,
  staleTime: 60 * 60 * 1000,
});

/** Until the clinic's details arrive: the zone the portal runs in unless configured. */
const DEFAULT_TIME_ZONE = 'America/New_York';

/**
 * Whether the portal offers Google sign-in (a Google client is configured): not until the
 * clinic's details say so, which the served page carries from its first render.
 */
export function useSignInWithGoogle(): boolean {
  return useQuery(clinicQuery).data?.signInWithGoogle ?? false;
}

/** The clinic's time zone, in which its days and times are shown. */
export function useClinicTimeZone(): string {
  return useQuery(clinicQuery).data?.timeZone ?? DEFAULT_TIME_ZONE;
}

import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { requestPasswordReset } from '../../../lib/auth/auth-api';

/** One way into the account as the identity service lists it; 'credential' is the password. */
interface LinkedAccount {
  providerId: string;
}

/**
 * Whether the signed-in account has a password, from Better Auth's `GET /api/auth/list-accounts`.
 * Asked only where the portal offers Google sign-in: elsewhere every account was made with a
 * password. Undefined while unknown (or when it cannot be known), so the screens show what
 * suits most accounts: the password forms.
 */
export function useHasPassword(userId: string, googleOffered: boolean): boolean | undefined {
  const accounts = useQuery({
    queryKey: ['sign-in-methods', userId],
    queryFn: ({ signal }) =>
      api<LinkedAccount[]>('/auth/list-accounts', { signal, anonymous: true }),
    enabled: googleOffered,
  });
  if (!googleOffered) return true;
  return accounts.data?.some((account) => account.providerId === 'credential');
}

/** The reset mail, sent to the account's own address: its link sets a first password too. */
export function useSendPasswordLink(email: string) {
  return useMutation({ mutationFn: () => requestPasswordReset(email) });
}

import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { clearAccessToken } from './access-token';
import { getSession } from './auth-api';

/** Who is signed in, as the identity service says (null when nobody is). */
export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: ({ signal }) => getSession(signal),
  staleTime: 5 * 60 * 1000,
});

/**
 * Forgets the session here: the stored access token, every cached answer that belonged to it,
 * and the signed-in user. The route guards then send the patient to the login page, remembering
 * where they were. For sign-out, a token that cannot be issued, and a server that no longer
 * honours the session (spec section 4).
 */
export function endSession(queryClient: QueryClient) {
  clearAccessToken();
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
  queryClient.setQueryData(sessionQuery.queryKey, null);
}

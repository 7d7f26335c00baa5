import { messages } from '@doctors-portal/contract';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify/unstyled';
import { ApiError, SessionEndedError } from './api-client';
import { endSession } from './auth/session';

/** The one notice of an ended session, however many calls were refused. */
export const SESSION_ENDED_NOTICE = 'session-ended';

/** A client error (4xx) will answer the same when asked again; anything else may not. */
export const retryUnlessRefused = (failures: number, error: Error) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2;

/**
 * The app's query client. A query or a change whose answer says the session has ended
 * (SessionEndedError, lib/api-client.ts) ends it here, once for every screen: the stored token
 * and the cached answers go, the route guards take the patient to the login page, and a notice
 * says why (once, however many calls found out), whatever the screen was doing.
 */
export function createQueryClient(): QueryClient {
  const onError = (error: Error) => {
    if (!(error instanceof SessionEndedError)) return;
    endSession(queryClient);
    toast.info(messages.sessionEnded, { toastId: SESSION_ENDED_NOTICE });
  };
  const queryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Asking again will not bring an ended session back.
        retry: (failures, error) => !(error instanceof SessionEndedError) && failures < 1,
        refetchOnWindowFocus: false,
      },
    },
  });
  return queryClient;
}

import { paths } from '@doctors-portal/contract';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { useAuth } from '../../lib/auth/auth-provider';
import type { LoginState } from '../../lib/auth/guards';

/**
 * A 401 means the server no longer honours this session: forget it and go to login, coming back
 * here afterwards. (A 403 on this page means someone else's booking, which the page says.)
 * Answers whether the error was that.
 */
export function useSessionEnded() {
  const { endSession } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (error: unknown) => {
      if (!(error instanceof ApiError && error.status === 401)) return false;
      endSession();
      navigate(paths.login, { replace: true, state: { from: location } satisfies LoginState });
      return true;
    },
    [endSession, navigate, location],
  );
}

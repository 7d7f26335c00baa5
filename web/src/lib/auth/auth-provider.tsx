import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { api, setAccessTokenSource } from '../api-client';
import { clearAccessToken, currentAccessToken, startAccessToken } from './access-token';
import { type SessionUser, signOut as signOutOnServer } from './auth-api';
import { endSession, sessionQuery } from './session';

export type AuthStatus = 'loading' | 'signed-in' | 'signed-out';

export interface Auth {
  status: AuthStatus;
  user: SessionUser | null;
  /**
   * The staff-only screen the user was last signed out of for not being an admin (until they
   * sign in again), so that the login page can say why they are there.
   */
  refusedAt: string | null;
  /**
   * Signs out on the server (the access token stops working at once) and forgets the token;
   * `refusedAt` when the app does it because the user may not open that staff-only screen.
   */
  signOut(options?: { refusedAt?: string }): Promise<void>;
  /** Re-reads the session after signing in. */
  refresh(): Promise<void>;
}

const AuthContext = createContext<Auth | null>(null);

setAccessTokenSource(currentAccessToken);

/** Knows who is signed in, and keeps their API access token ("token sync" in the spec). */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery);
  const user = session.data ?? null;
  const [refusedAt, setRefusedAt] = useState<string | null>(null);
  const token = useQuery({
    queryKey: ['access-token', user?.email],
    queryFn: async () => {
      await startAccessToken(user?.email as string);
      return true;
    },
    enabled: Boolean(user),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

  // A session the server no longer honours (the token could not be issued) is no session.
  useEffect(() => {
    if (token.isError) endSession(queryClient);
  }, [token.isError, queryClient]);
  useEffect(() => {
    if (session.data === null) clearAccessToken();
  }, [session.data]);

  const value = useMemo<Auth>(() => {
    const status: AuthStatus =
      session.isPending || (user && token.isPending)
        ? 'loading'
        : user && token.isSuccess
          ? 'signed-in'
          : 'signed-out';
    return {
      status,
      user: status === 'signed-in' ? user : null,
      refusedAt,
      signOut: async (options) => {
        setRefusedAt(options?.refusedAt ?? null);
        await signOutOnServer().catch(() => {});
        endSession(queryClient);
      },
      refresh: () => {
        setRefusedAt(null);
        return queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });
      },
    };
  }, [session.isPending, user, token.isPending, token.isSuccess, queryClient, refusedAt]);

  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside AuthProvider');
  return auth;
}

/** Whether the signed-in user is an administrator (GET /api/admin/{email}). */
export function useAdminStatus() {
  const { user } = useAuth();
  return useQuery({
    queryKey: ['admin', user?.email],
    queryFn: ({ signal }) =>
      api<{ admin: boolean }>(`/admin/${encodeURIComponent(user?.email ?? '')}`, { signal }),
    enabled: Boolean(user),
    staleTime: 5 * 60 * 1000,
    select: (answer) => answer.admin,
  });
}

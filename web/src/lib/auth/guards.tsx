import { paths } from '@doctors-portal/contract';
import { type ReactNode, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoader } from '../../components/spinner';
import { useAdminStatus, useAuth } from './auth-provider';

/**
 * Where the login page sends the user back to, and `staffOnly` when the app signed them out of
 * that screen for not being an admin (the login page says so).
 */
export interface LoginState {
  from?: { pathname: string; search?: string; hash?: string };
  staffOnly?: boolean;
}

function ToLogin() {
  const location = useLocation();
  const { refusedAt } = useAuth();
  const state: LoginState = { from: location };
  if (refusedAt === location.pathname) state.staffOnly = true;
  return <Navigate to={paths.login} state={state} replace />;
}

/** Shows its screen to signed-in users; others go to login and come back after. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  if (status === 'loading') return <PageLoader label="Checking your sign-in…" />;
  if (status === 'signed-out') return <ToLogin />;
  return children;
}

/**
 * Shows its screen to admins only; anyone else is signed out and sent to login, which says the
 * screen is for the clinic's staff.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const admin = useAdminStatus();
  const { pathname } = useLocation();
  const notAdmin = admin.data === false;
  const refused = auth.status === 'signed-in' && (notAdmin || admin.isError);
  useEffect(() => {
    // Only a clear 'no' says the screen is for staff; a failed check says nothing.
    if (refused) void auth.signOut(notAdmin ? { refusedAt: pathname } : undefined);
  }, [refused, notAdmin, auth, pathname]);
  if (auth.status === 'signed-out') return <ToLogin />;
  if (auth.status === 'loading' || admin.isPending || refused) {
    return <PageLoader label="Checking your access…" />;
  }
  return children;
}

/** Route layouts: the child routes of these render only for signed-in users, or admins. */
export function SignedInOutlet() {
  return (
    <RequireAuth>
      <Outlet />
    </RequireAuth>
  );
}

export function AdminOutlet() {
  return (
    <RequireAdmin>
      <Outlet />
    </RequireAdmin>
  );
}

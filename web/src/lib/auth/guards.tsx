import { paths } from '@doctors-portal/contract';
import { type ReactNode, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoader } from '../../components/spinner';
import { useAdminStatus, useAuth } from './auth-provider';

/** Where the login page sends the user back to. */
export interface LoginState {
  from?: { pathname: string; search?: string; hash?: string };
}

function ToLogin() {
  const location = useLocation();
  return <Navigate to={paths.login} state={{ from: location } satisfies LoginState} replace />;
}

/** Shows its screen to signed-in users; others go to login and come back after. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  if (status === 'loading') return <PageLoader label="Checking your sign-in…" />;
  if (status === 'signed-out') return <ToLogin />;
  return children;
}

/** Shows its screen to admins only; anyone else is signed out and sent to login. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const admin = useAdminStatus();
  const refused = auth.status === 'signed-in' && (admin.data === false || admin.isError);
  useEffect(() => {
    if (refused) void auth.signOut();
  }, [refused, auth]);
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

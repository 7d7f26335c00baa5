import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { AuthCard } from '../features/auth/components/auth-card';
import { LoginForm } from '../features/auth/components/login-form';
import { oauthErrorMessage } from '../features/auth/provider-error';
import { useAuth } from '../lib/auth/auth-provider';
import type { LoginState } from '../lib/auth/guards';

export default function LoginRoute() {
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const from = (location.state as LoginState | null)?.from;
  const returnTo = from ? `${from.pathname}${from.search ?? ''}${from.hash ?? ''}` : '/';

  // While the session is still being read the form shows already, as the prerendered page drew
  // it; a visitor who turns out to be signed in goes on.
  if (auth.status === 'signed-in') return <Navigate to={returnTo} replace />;
  return (
    <AuthCard
      title="Login now!"
      intro="Welcome back. Log in to book and pay for your appointments."
    >
      <LoginForm
        returnTo={returnTo}
        initialError={oauthErrorMessage(params.get('error'))}
        onSignedIn={async () => {
          await auth.refresh();
          navigate(returnTo, { replace: true });
        }}
      />
    </AuthCard>
  );
}

import { paths } from '@doctors-portal/contract';
import { Link, useSearchParams } from 'react-router';
import { ErrorAlert } from '../components/error-alert';
import { AuthCard } from '../features/auth/components/auth-card';
import { ResetPasswordForm } from '../features/auth/components/reset-password-form';

/** Reached from the password-reset email, which carries a single-use token. */
export default function ResetPasswordRoute() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <AuthCard
      title="Choose a new password"
      intro="Pick a password of 6 characters or more that you use nowhere else."
    >
      {token && !params.get('error') ? (
        <ResetPasswordForm token={token} />
      ) : (
        <>
          <ErrorAlert>
            This reset link has expired or was already used. Ask for a new one with “Forgot
            password?” on the login page.
          </ErrorAlert>
          <Link to={paths.login} className="btn btn-primary">
            Go to login
          </Link>
        </>
      )}
    </AuthCard>
  );
}

import { newPasswordSchema, paths } from '@doctors-portal/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { resetPassword } from '../../../lib/auth/auth-api';
import { AuthForm, useAuthForm } from './auth-form';

const FIELDS = [
  { name: 'password', label: 'New password', type: 'password', autoComplete: 'new-password' },
  {
    name: 'confirm',
    label: 'Repeat the new password',
    type: 'password',
    autoComplete: 'new-password',
  },
] as const;

/** Sets a new password with the single-use token from the reset email. */
export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const auth = useAuthForm(zodResolver(newPasswordSchema), async ({ password }) => {
    await resetPassword(token, password);
    toast.success('Your password has been changed. Log in with the new one.');
    navigate(paths.login, { replace: true });
  });

  return (
    <AuthForm
      auth={auth}
      fields={FIELDS}
      submitLabel="Save new password"
      after={
        <Link to={paths.login} className="link link-primary text-center text-sm">
          Back to login
        </Link>
      }
    />
  );
}

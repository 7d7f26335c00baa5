import { newPasswordSchema, paths } from '@doctors-portal/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { resetPassword } from '../../../lib/auth/auth-api';
import { endSession } from '../../../lib/auth/session';
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
  const queryClient = useQueryClient();
  const auth = useAuthForm(zodResolver(newPasswordSchema), async ({ password }) => {
    await resetPassword(token, password);
    // A reset ends every session of the account, this browser's too (a patient setting a first
    // password from the account page is signed in): forgotten here, the login page stays.
    endSession(queryClient);
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

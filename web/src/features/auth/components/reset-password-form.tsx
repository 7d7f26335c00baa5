import { type NewPasswordInput, newPasswordSchema, paths } from '@doctors-portal/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '../../../components/error-alert';
import { Field } from '../../../components/form-field';
import { ApiError } from '../../../lib/api-client';
import { resetPassword } from '../../../lib/auth/auth-api';
import { providerError } from '../provider-error';

/** Sets a new password with the single-use token from the reset email. */
export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const [alert, setAlert] = useState('');
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<NewPasswordInput>({ resolver: zodResolver(newPasswordSchema) });

  const submit = handleSubmit(async ({ password }) => {
    setAlert('');
    try {
      await resetPassword(token, password);
      toast.success('Your password has been changed. Log in with the new one.');
      navigate(paths.login, { replace: true });
    } catch (error) {
      setAlert(
        providerError(
          error instanceof ApiError ? error.message : 'Something went wrong. Please try again.',
        ),
      );
    }
  });

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <Field
        label="New password"
        type="password"
        autoComplete="new-password"
        {...register('password')}
        error={errors.password?.message}
      />
      <Field
        label="Repeat the new password"
        type="password"
        autoComplete="new-password"
        {...register('confirm')}
        error={errors.confirm?.message}
      />
      <ErrorAlert>{alert}</ErrorAlert>
      <button type="submit" className="btn btn-primary w-full" disabled={isSubmitting}>
        Save new password
      </button>
      <Link to={paths.login} className="link link-primary text-center text-sm">
        Back to login
      </Link>
    </form>
  );
}

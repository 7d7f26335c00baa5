import { type LoginInput, loginSchema, messages, paths } from '@doctors-portal/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '../../../components/error-alert';
import { Field } from '../../../components/form-field';
import { ApiError } from '../../../lib/api-client';
import { requestPasswordReset, signInWithEmail } from '../../../lib/auth/auth-api';
import { providerError } from '../provider-error';
import { GoogleButton } from './google-button';

const reason = (error: unknown) =>
  error instanceof ApiError ? error.message : 'Something went wrong. Please try again.';

export function LoginForm({
  returnTo,
  initialError,
  onSignedIn,
}: {
  returnTo: string;
  initialError: string;
  onSignedIn: () => Promise<void>;
}) {
  const [alert, setAlert] = useState(initialError);
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput>({ resolver: zodResolver(loginSchema) });

  const submit = handleSubmit(async (input) => {
    setAlert('');
    try {
      await signInWithEmail(input);
      await onSignedIn();
    } catch (error) {
      setAlert(providerError(reason(error)));
    }
  });

  const forgotPassword = async () => {
    const email = getValues('email')?.trim();
    if (!email) {
      toast.error(messages.forgotPasswordNoEmail);
      return;
    }
    try {
      await requestPasswordReset(email);
      toast.success(messages.resetEmailSent);
    } catch (error) {
      setAlert(providerError(reason(error)));
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          {...register('email')}
          error={errors.email?.message}
        />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          {...register('password')}
          error={errors.password?.message}
        />
        <button
          type="button"
          className="link link-primary self-start text-sm"
          onClick={forgotPassword}
        >
          Forgot password?
        </button>
        <ErrorAlert>{alert}</ErrorAlert>
        <button type="submit" className="btn btn-primary w-full" disabled={isSubmitting}>
          {isSubmitting && (
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          )}
          Login
        </button>
      </form>
      <p className="text-center text-sm">
        New to the clinic?{' '}
        <Link to={paths.signup} className="link link-primary font-medium">
          Create New Account
        </Link>
      </p>
      <div className="divider my-0 text-sm">OR</div>
      <GoogleButton returnTo={returnTo} onError={(message) => setAlert(providerError(message))} />
    </div>
  );
}

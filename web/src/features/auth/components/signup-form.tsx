import { messages, paths, type SignUpInput, signUpSchema } from '@doctors-portal/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '../../../components/error-alert';
import { Field } from '../../../components/form-field';
import { ApiError } from '../../../lib/api-client';
import { signUpWithEmail } from '../../../lib/auth/auth-api';
import { providerError } from '../provider-error';
import { GoogleButton } from './google-button';

export function SignupForm({ onSignedUp }: { onSignedUp: () => Promise<void> }) {
  const [alert, setAlert] = useState('');
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignUpInput>({ resolver: zodResolver(signUpSchema) });

  const submit = handleSubmit(async (input) => {
    setAlert('');
    try {
      await signUpWithEmail(input);
      toast.success(messages.verificationSent);
      await onSignedUp();
    } catch (error) {
      setAlert(
        providerError(
          error instanceof ApiError ? error.message : 'Something went wrong. Please try again.',
        ),
      );
    }
  });

  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <Field
          label="Name"
          autoComplete="name"
          {...register('name')}
          error={errors.name?.message}
        />
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
          autoComplete="new-password"
          {...register('password')}
          error={errors.password?.message}
        />
        <ErrorAlert>{alert}</ErrorAlert>
        <button type="submit" className="btn btn-primary w-full" disabled={isSubmitting}>
          {isSubmitting && (
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          )}
          Signup
        </button>
      </form>
      <p className="text-center text-sm">
        <Link to={paths.login} className="link link-primary font-medium">
          Already Have an Account?
        </Link>
      </p>
      <div className="divider my-0 text-sm">OR</div>
      <GoogleButton
        returnTo={paths.dashboard}
        onError={(message) => setAlert(providerError(message))}
      />
    </div>
  );
}

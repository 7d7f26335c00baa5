import { type ReactNode, useState } from 'react';
import {
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import { useSignInWithGoogle } from '../../../api/clinic';
import { ErrorAlert } from '../../../components/error-alert';
import { Field } from '../../../components/form-field';
import { ApiError } from '../../../lib/api-client';
import { useHydrated } from '../../../lib/use-hydrated';
import { providerError } from '../provider-error';
import { GoogleButton } from './google-button';

/** One input of an auth form: the schema's field it fills, and how the browser may fill it in. */
export interface AuthField<T extends FieldValues> {
  name: Path<T>;
  label: string;
  type?: 'email' | 'password';
  autoComplete: string;
}

/** The email input of the login and sign-up forms. */
export const emailField = {
  name: 'email',
  label: 'Email',
  type: 'email',
  autoComplete: 'email',
} as const;

/** The alert's text for a call to the identity service that failed. */
const refusal = (error: unknown) =>
  providerError(
    error instanceof ApiError ? error.message : 'Something went wrong. Please try again.',
  );

/**
 * A form's resolver that is loaded on the form's first check, then kept: see resolvers.ts.
 */
export function resolverOnDemand<T extends FieldValues>(
  load: () => Promise<Resolver<T>>,
): Resolver<T> {
  let loading: Promise<Resolver<T>> | undefined;
  return async (values, context, options) => {
    loading ??= load();
    return (await loading)(values, context, options);
  };
}

/**
 * What every auth form shares: the fields, checked by the contract's schema (`resolver`), and
 * the alert box, which shows why the identity service refused (spec: 'Developer Authority says:
 * …'). `send` runs on a valid submit; when it throws, the alert says why, and the next submit
 * clears it.
 */
export function useAuthForm<T extends FieldValues>(
  resolver: Resolver<T>,
  send: (input: T) => Promise<void>,
  initialAlert = '',
) {
  const [alert, setAlert] = useState(initialAlert);
  const form = useForm<T>({ resolver });
  const fail = (error: unknown) => setAlert(refusal(error));
  const submit = form.handleSubmit(async (input) => {
    setAlert('');
    try {
      await send(input);
    } catch (error) {
      fail(error);
    }
  });
  /** An identity provider's message ('' clears the alert), e.g. from Google sign-in. */
  const showProviderError = (message: string) => setAlert(providerError(message));
  /** Clears the alert once a later call has gone through, so that an old refusal does not linger. */
  const clearAlert = () => setAlert('');
  return { form, submit, alert, fail, showProviderError, clearAlert };
}

export type AuthFormState<T extends FieldValues> = ReturnType<typeof useAuthForm<T>>;

/**
 * An auth form: its fields with their errors, then `children` (e.g. 'Forgot password?'), the
 * alert and the submit button (with a spinner while it is sent, where `spinner`), then `after`.
 */
export function AuthForm<T extends FieldValues>({
  auth: { form, submit, alert },
  fields,
  submitLabel,
  spinner = false,
  children,
  after,
}: {
  auth: Pick<AuthFormState<T>, 'form' | 'submit' | 'alert'>;
  fields: readonly AuthField<T>[];
  submitLabel: string;
  spinner?: boolean;
  children?: ReactNode;
  after?: ReactNode;
}) {
  const { isSubmitting } = form.formState;
  // On a prerendered page the form shows before the app runs: sent then, it would go as a plain
  // GET, the password in the address.
  const hydrated = useHydrated();
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      {fields.map(({ name, ...input }) => (
        <Field key={name} {...input} {...form.register(name)} error={fieldError(form, name)} />
      ))}
      {children}
      <ErrorAlert>{alert}</ErrorAlert>
      <button type="submit" className="btn btn-primary w-full" disabled={isSubmitting || !hydrated}>
        {spinner && isSubmitting && (
          <span className="loading loading-spinner loading-sm" aria-hidden="true" />
        )}
        {submitLabel}
      </button>
      {after}
    </form>
  );
}

function fieldError<T extends FieldValues>(form: UseFormReturn<T>, name: Path<T>) {
  return form.getFieldState(name, form.formState).error?.message;
}

/**
 * The login and sign-up pages' body: the form, a line linking to the other page, and Google
 * sign-in below 'OR' where the portal offers it (it returns to `returnTo`, and reports a failure
 * in the form's alert).
 */
export function WithGoogleSignIn({
  children,
  link,
  returnTo,
  onError,
}: {
  children: ReactNode;
  link: ReactNode;
  returnTo: string;
  onError: (message: string) => void;
}) {
  const google = useSignInWithGoogle();
  return (
    <div className="flex flex-col gap-4">
      {children}
      <p className="text-center text-sm">{link}</p>
      {google ? (
        <>
          <div className="divider my-0 text-sm">OR</div>
          <GoogleButton returnTo={returnTo} onError={onError} />
        </>
      ) : null}
    </div>
  );
}

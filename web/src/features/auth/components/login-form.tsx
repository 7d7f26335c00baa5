import { type LoginInput, messages, paths } from '@doctors-portal/contract';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { requestPasswordReset, signInWithEmail } from '../../../lib/auth/auth-api';
import { useHydrated } from '../../../lib/use-hydrated';
import { AuthForm, emailField, resolverOnDemand, useAuthForm, WithGoogleSignIn } from './auth-form';
import { LoginNotice } from './login-notice';

const FIELDS = [
  emailField,
  { name: 'password', label: 'Password', type: 'password', autoComplete: 'current-password' },
] as const;

/** Made once, so that the schemas it loads on the first check stay loaded across renders. */
const resolver = resolverOnDemand<LoginInput>(() =>
  import('../resolvers').then((module) => module.loginResolver),
);

export function LoginForm({
  returnTo,
  initialError,
  onSignedIn,
}: {
  returnTo: string;
  initialError: string;
  onSignedIn: () => Promise<void>;
}) {
  const auth = useAuthForm(
    resolver,
    async (input) => {
      await signInWithEmail(input);
      await onSignedIn();
    },
    initialError,
  );

  // The prerendered page shows the form before the app runs, when this button could do nothing.
  const hydrated = useHydrated();
  const forgotPassword = async () => {
    // A new request: an earlier login's refusal no longer speaks of what is on the screen.
    auth.clearAlert();
    const email = auth.form.getValues('email')?.trim();
    if (!email) {
      toast.error(messages.forgotPasswordNoEmail);
      return;
    }
    try {
      await requestPasswordReset(email);
      toast.success(messages.resetEmailSent);
    } catch (error) {
      auth.fail(error);
    }
  };

  return (
    <>
      <LoginNotice />
      <WithGoogleSignIn
        returnTo={returnTo}
        onError={auth.showProviderError}
        link={
          <>
            New to the clinic?{' '}
            <Link to={paths.signup} className="link link-primary font-medium">
              Create New Account
            </Link>
          </>
        }
      >
        <AuthForm auth={auth} fields={FIELDS} submitLabel="Login" spinner>
          <button
            type="button"
            className="link link-primary self-start text-sm"
            disabled={!hydrated}
            onClick={forgotPassword}
          >
            Forgot password?
          </button>
        </AuthForm>
      </WithGoogleSignIn>
    </>
  );
}

import { messages, paths, type SignUpInput } from '@doctors-portal/contract';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { signUpWithEmail } from '../../../lib/auth/auth-api';
import { AuthForm, emailField, resolverOnDemand, useAuthForm, WithGoogleSignIn } from './auth-form';

const FIELDS = [
  { name: 'name', label: 'Name', autoComplete: 'name' },
  emailField,
  { name: 'password', label: 'Password', type: 'password', autoComplete: 'new-password' },
] as const;

/** Made once, so that the schemas it loads on the first check stay loaded across renders. */
const resolver = resolverOnDemand<SignUpInput>(() =>
  import('../resolvers').then((module) => module.signUpResolver),
);

export function SignupForm({ onSignedUp }: { onSignedUp: () => Promise<void> }) {
  const auth = useAuthForm(resolver, async (input) => {
    await signUpWithEmail(input);
    toast.success(messages.verificationSent);
    await onSignedUp();
  });

  return (
    <WithGoogleSignIn
      returnTo={paths.dashboard}
      onError={auth.showProviderError}
      link={
        <Link to={paths.login} className="link link-primary font-medium">
          Already Have an Account?
        </Link>
      }
    >
      <AuthForm auth={auth} fields={FIELDS} submitLabel="Signup" spinner />
    </WithGoogleSignIn>
  );
}

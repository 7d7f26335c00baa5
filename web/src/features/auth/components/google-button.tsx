import { useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { googleSignInUrl } from '../../../lib/auth/auth-api';
import { useHydrated } from '../../../lib/use-hydrated';

/** 'continue with google': hands the browser to Google, then back to `returnTo`. */
export function GoogleButton({
  returnTo,
  onError,
}: {
  returnTo: string;
  onError: (message: string) => void;
}) {
  const [redirecting, setRedirecting] = useState(false);
  // The prerendered login and sign-up pages show it before the app runs.
  const hydrated = useHydrated();
  const start = async () => {
    setRedirecting(true);
    onError('');
    try {
      window.location.assign(await googleSignInUrl(returnTo));
    } catch (error) {
      setRedirecting(false);
      onError(
        error instanceof ApiError ? error.message : 'Google sign-in is not available right now.',
      );
    }
  };
  return (
    <button
      type="button"
      className="btn btn-outline w-full"
      onClick={start}
      disabled={redirecting || !hydrated}
    >
      {redirecting ? (
        <span className="loading loading-spinner loading-sm" aria-hidden="true" />
      ) : (
        <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true">
          <path
            fill="#4285F4"
            d="M22.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h5.9a5 5 0 0 1-2.2 3.3v2.7h3.6c2-1.9 3.2-4.7 3.2-8.1z"
          />
          <path
            fill="#34A853"
            d="M12 23c3 0 5.5-1 7.3-2.7l-3.6-2.7c-1 .7-2.2 1-3.7 1-2.8 0-5.2-1.9-6.1-4.5H2.2v2.8A11 11 0 0 0 12 23z"
          />
          <path
            fill="#FBBC05"
            d="M5.9 14.1a6.6 6.6 0 0 1 0-4.2V7.1H2.2a11 11 0 0 0 0 9.8l3.7-2.8z"
          />
          <path
            fill="#EA4335"
            d="M12 5.4c1.6 0 3 .6 4.1 1.6l3.1-3.1A11 11 0 0 0 2.2 7.1l3.7 2.8C6.8 7.3 9.2 5.4 12 5.4z"
          />
        </svg>
      )}
      {redirecting ? 'Opening Google…' : 'continue with google'}
    </button>
  );
}

import { useLocation } from 'react-router';
import type { LoginState } from '../../../lib/auth/guards';
import { failedLink, verificationOutcome } from '../email-verification';

/** Said on the login page when the app sent a patient away from a staff-only screen. */
export const STAFF_ONLY_MESSAGE =
  "That page is for the clinic's staff. Sign in with an admin account to open it.";

/**
 * Why the login page is showing, when the app sent the visitor here: signed out of a staff-only
 * screen, or a verification link that failed while nobody was signed in. A lasting notice, not
 * a toast: it stays while the person reads it and signs in.
 */
export function LoginNotice() {
  const state = useLocation().state as LoginState | null;
  const outcome = verificationOutcome(state?.from?.search ?? '');
  const message = state?.staffOnly
    ? STAFF_ONLY_MESSAGE
    : outcome && outcome !== 'verified'
      ? `${failedLink[outcome]} Log in, and ask for a new one from your dashboard.`
      : null;
  if (!message) return null;
  return (
    <div role="status" className="alert alert-info alert-soft text-sm">
      {message}
    </div>
  );
}

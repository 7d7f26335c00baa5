import { VERIFICATION_PARAM } from '@doctors-portal/contract';
import { useLocation, useSearchParams } from 'react-router';
import { useAuth } from '../../../lib/auth/auth-provider';
import { failedLink, VERIFIED_MESSAGE, verificationOutcome } from '../email-verification';

/**
 * On the page the verification mail's link lands on: says the address is verified, or why the
 * link did not work and how to get a new one. It stays until dismissed, which also takes the
 * marks out of the address (a reload then says nothing more).
 */
export function EmailVerificationNotice() {
  const { user } = useAuth();
  const { search } = useLocation();
  const [, setSearch] = useSearchParams();
  const outcome = verificationOutcome(search);
  if (!outcome) return null;
  const dismiss = () =>
    setSearch(
      (query) => {
        query.delete(VERIFICATION_PARAM);
        query.delete('error');
        return query;
      },
      { replace: true, preventScrollReset: true },
    );
  const message =
    outcome === 'verified'
      ? VERIFIED_MESSAGE
      : `${failedLink[outcome]} ${
          user?.emailVerified
            ? 'Your address is verified already: there is nothing more to do.'
            : "Use 'Resend verification email' to get a new link."
        }`;
  return (
    <div
      role="status"
      className={`alert alert-soft flex flex-wrap justify-between gap-3 ${
        outcome === 'verified' ? 'alert-success' : 'alert-warning'
      }`}
    >
      <span>{message}</span>
      <button type="button" className="btn btn-sm btn-ghost" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}

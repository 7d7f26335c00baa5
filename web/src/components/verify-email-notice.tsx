import { useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ApiError } from '../lib/api-client';
import { sendVerificationEmail } from '../lib/auth/auth-api';
import { useAuth } from '../lib/auth/auth-provider';

/**
 * Reminds a patient whose address is not verified yet, with a way to get the mail again. `before`
 * names what needs the verified address ('booking'), where that is why it shows.
 */
export function VerifyEmailNotice({ before }: { before?: string }) {
  const { user } = useAuth();
  const [sending, setSending] = useState(false);
  if (!user || user.emailVerified) return null;
  const resend = async () => {
    setSending(true);
    try {
      await sendVerificationEmail(user.email);
      toast.success(`We sent a new verification link to ${user.email}.`);
    } catch (error) {
      toast.error(
        error instanceof ApiError
          ? error.message
          : 'The email could not be sent. Please try again.',
      );
    } finally {
      setSending(false);
    }
  };
  return (
    <div
      role="status"
      className="alert flex flex-wrap justify-between gap-3 border-warning bg-warning/15 text-base-content"
    >
      <span>
        Please verify your email address{before ? ` before ${before}` : ''}: open the link we sent
        to <strong>{user.email}</strong>.
      </span>
      <button type="button" className="btn btn-sm btn-warning" onClick={resend} disabled={sending}>
        {sending ? 'Sending…' : 'Resend verification email'}
      </button>
    </div>
  );
}

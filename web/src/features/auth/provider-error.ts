import { messages } from '@doctors-portal/contract';

/** What the identity service's error codes (from a failed Google sign-in) mean to a person. */
const OAUTH_ERRORS: Record<string, string> = {
  account_not_linked:
    'An account with this email already exists. Log in with your password and verify your email first; Google sign-in will then work for it too.',
  access_denied: 'Google sign-in was cancelled.',
  invalid_code: 'Google sign-in took too long. Please try again.',
  state_mismatch: 'Google sign-in was interrupted. Please try again.',
};

/** The alert box's text for an identity-provider error (spec: 'Developer Authority says: …'). */
export function providerError(message: string): string {
  return message ? `${messages.providerErrorPrefix}${message}` : '';
}

export function oauthErrorMessage(code: string | null): string {
  if (!code) return '';
  return providerError(
    OAUTH_ERRORS[code] ?? `Google sign-in failed (${code.replaceAll('_', ' ')}).`,
  );
}

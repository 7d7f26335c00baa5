import { VERIFICATION_PARAM } from '@doctors-portal/contract';

/** What following the verification mail's link did: verified the address, or failed and why. */
export type VerificationOutcome = 'verified' | 'expired' | 'invalid';

/**
 * The outcome a page's query tells, where the page is the link's landing (the server marks it,
 * and the identity service adds `error` when the link failed); null on any other visit.
 */
export function verificationOutcome(search: string): VerificationOutcome | null {
  const query = new URLSearchParams(search);
  if (!query.has(VERIFICATION_PARAM)) return null;
  const error = query.get('error');
  if (!error) return 'verified';
  return error === 'TOKEN_EXPIRED' ? 'expired' : 'invalid';
}

/** What the landing says of a failed link; the rest of the sentence says how to get a new one. */
export const failedLink: Record<Exclude<VerificationOutcome, 'verified'>, string> = {
  expired: 'That verification link has expired.',
  invalid: 'That verification link is not valid (it may be incomplete or already replaced).',
};

export const VERIFIED_MESSAGE = 'Your email address is verified.';

import type { LoginInput, SignUpInput } from '@doctors-portal/contract';
import { api } from '../api-client';

/** The calls to the identity service (Better Auth, mounted at /api/auth). */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  /** The phone on the account (a patient's own, optional). */
  phone?: string | null;
  /** The age on the account (optional, 0 to 120); a first booking fills it when empty. */
  age?: number | null;
}

const post = <T>(path: string, body: Record<string, unknown> = {}) =>
  api<T>(`/auth${path}`, { method: 'POST', body, anonymous: true });

export async function getSession(signal?: AbortSignal): Promise<SessionUser | null> {
  const session = await api<{ user: SessionUser } | null>('/auth/get-session', {
    signal,
    anonymous: true,
  });
  return session?.user ?? null;
}

export const signInWithEmail = (input: LoginInput) => post('/sign-in/email', { ...input });

/** The verification mail's link lands where the server says (VERIFICATION_LANDING). */
export const signUpWithEmail = (input: SignUpInput) => post('/sign-up/email', { ...input });

export const signOut = () => post('/sign-out');

/** Where the browser goes to sign in with Google; the server answers with the provider's URL. */
export const googleSignInUrl = async (returnTo: string) =>
  (
    await post<{ url: string }>('/sign-in/social', {
      provider: 'google',
      callbackURL: returnTo,
      errorCallbackURL: '/login',
    })
  ).url;

export const requestPasswordReset = (email: string) =>
  post('/request-password-reset', { email, redirectTo: '/reset-password' });

export const resetPassword = (token: string, newPassword: string) =>
  post('/reset-password', { token, newPassword });

export const sendVerificationEmail = (email: string) => post('/send-verification-email', { email });

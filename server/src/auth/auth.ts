import { emailField, messages, nameField, passwordField } from '@doctors-portal/contract';
import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { genericOAuth } from 'better-auth/plugins';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../config/env.js';
import type { DatabaseHandle } from '../db/database.js';
import type { Mailer } from '../mail/mailer.js';
import { passwordResetEmail, verificationEmail } from '../mail/templates.js';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './password-policy.js';
import { CLIENT_IP_HEADER } from './plugin.js';
import type { RateLimitStore } from './rate-limit-store.js';
import { trustedOriginsOf } from './same-origin.js';

export interface AuthDependencies {
  config: Config;
  database: DatabaseHandle;
  mailer: Mailer;
  rateLimits: RateLimitStore;
  secret: string;
  log: FastifyBaseLogger;
}

/** The provider id of Google sign-in, as the web app names it. */
export const GOOGLE_PROVIDER_ID = 'google';

function check<T>(schema: z.ZodType<T>, value: unknown): void {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new APIError('BAD_REQUEST', {
      message: result.error.issues[0]?.message ?? 'Invalid input',
    });
  }
}

function checkNewPassword(password: unknown): void {
  check(passwordField, password);
  if (isCommonPassword(password as string))
    throw new APIError('BAD_REQUEST', { message: COMMON_PASSWORD_MESSAGE });
}

/**
 * Identity for the portal: email and password with verification and reset by mail, Google
 * over OpenID Connect when configured, sessions and rate limits in the portal's own database.
 */
export function createAuth({
  config,
  database,
  mailer,
  rateLimits,
  secret,
  log,
}: AuthDependencies) {
  const { clinic } = config;
  // Mail goes out in the background: a reset request for a known address must not take
  // longer to answer than one for an unknown address.
  const sendInBackground = (message: Parameters<Mailer['send']>[0], what: string) => {
    mailer
      .send(message)
      .catch((error: unknown) => log.error({ err: error }, `${what} mail failed`));
  };

  return betterAuth({
    appName: clinic.name,
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: trustedOriginsOf(config),
    database: { db: database.db, type: database.engine },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: async ({ user, url }) => {
        sendInBackground(
          { to: user.email, ...passwordResetEmail({ clinic, name: user.name, url }) },
          'password reset',
        );
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: async ({ user, url }) => {
        sendInBackground(
          { to: user.email, ...verificationEmail({ clinic, name: user.name, url }) },
          'verification',
        );
      },
    },
    account: {
      // An unverified local account is never linked to a Google identity silently.
      accountLinking: { enabled: true, requireLocalEmailVerified: true },
    },
    user: {
      additionalFields: { role: { type: 'string', required: false, input: false } },
    },
    verification: { storeIdentifier: 'hashed' },
    session: { expiresIn: 7 * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
    rateLimit: {
      enabled: true,
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/email': { window: 60, max: 10 },
        '/sign-up/email': { window: 60, max: 5 },
        '/request-password-reset': { window: 60, max: 3 },
        '/send-verification-email': { window: 60, max: 3 },
      },
      customStorage: rateLimits,
    },
    advanced: {
      // The library skips its origin (CSRF) check when NODE_ENV is 'test' unless told: the
      // portal checks origins whatever NODE_ENV says, so its tests run what production runs.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      useSecureCookies: config.publicUrl.startsWith('https://'),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      database: { generateId: () => crypto.randomUUID() },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const body = ctx.body as Record<string, unknown> | undefined;
        switch (ctx.path) {
          case '/sign-up/email':
            check(nameField, body?.name);
            check(emailField(), body?.email);
            checkNewPassword(body?.password);
            return;
          case '/sign-in/email':
            check(emailField(), body?.email);
            if (typeof body?.password !== 'string' || body.password === '') {
              throw new APIError('BAD_REQUEST', { message: messages.passwordRequired });
            }
            return;
          case '/reset-password':
            checkNewPassword(body?.newPassword);
            return;
        }
      }),
    },
    plugins: config.auth.google
      ? [
          genericOAuth({
            config: [
              {
                providerId: GOOGLE_PROVIDER_ID,
                clientId: config.auth.google.clientId,
                clientSecret: config.auth.google.clientSecret,
                discoveryUrl: `${config.auth.google.issuer}/.well-known/openid-configuration`,
                scopes: ['openid', 'email', 'profile'],
                pkce: true,
              },
            ],
          }),
        ]
      : [],
    logger: {
      log: (level, message, ...args) => log[level]({ args }, `auth: ${message}`),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

import {
  accountAgeField,
  accountPhoneField,
  cleanName,
  emailField,
  loginEmailField,
  messages,
  nameField,
  passwordField,
  paths,
  VERIFICATION_LANDING,
} from '@doctors-portal/contract';
import { type BetterAuthOptions, betterAuth, generateId, type User } from 'better-auth';
import { APIError, createAuthMiddleware, formCsrfMiddleware } from 'better-auth/api';
import { buildSyntheticUserOutput, parseUserInput, parseUserOutput } from 'better-auth/db';
import { genericOAuth } from 'better-auth/plugins';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../config/env.js';
import type { DatabaseHandle } from '../db/database.js';
import type { Mailer } from '../mail/mailer.js';
import { passwordResetEmail, signUpAttemptEmail, verificationEmail } from '../mail/templates.js';
import { deleteVerifications } from '../users/repository.js';
import { libraryLogger } from './library-log.js';
import { loginFailuresKey } from './login-failures.js';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './password-policy.js';
import { PROFILE_IMAGE_MESSAGE, profileImageRule } from './profile-rules.js';
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

/**
 * The client's address as Fastify resolved it (honouring TRUST_PROXY), set by the portal itself
 * on the requests it hands to the library (auth/routes.ts), under a header no client can set:
 * the library keys its rate limits on it.
 */
export const CLIENT_IP_HEADER = 'x-portal-client-ip';

/** The provider id of Google sign-in, as the web app names it. */
export const GOOGLE_PROVIDER_ID = 'google';

/** The value as `schema` parses it (trimmed, lower-cased…); a 400 with its message if refused. */
function check<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new APIError('BAD_REQUEST', {
      message: result.error.issues[0]?.message ?? 'Invalid input',
    });
  }
  return result.data;
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
  const isProfileImage = profileImageRule(config);
  /** A profile picture may be left out, cleared (null or empty) or one the portal accepts. */
  const checkImage = (image: unknown) => {
    if (image === undefined || image === null || image === '') return;
    if (typeof image !== 'string' || !isProfileImage(image)) {
      throw new APIError('BAD_REQUEST', { message: PROFILE_IMAGE_MESSAGE });
    }
  };
  /**
   * The parts of a sign-up beyond name, email and password, checked as the library's endpoint
   * checks them: a sign-up for a registered address never reaches the endpoint, and must be
   * refused exactly when one for a new address would be.
   */
  const checkSignUpRest = (
    options: BetterAuthOptions,
    body: Record<string, unknown> | undefined,
  ): { image: string | undefined; extra: Record<string, unknown> } => {
    const {
      name: _n,
      email: _e,
      password: _p,
      callbackURL: _c,
      image,
      rememberMe,
      ...rest
    } = body ?? {};
    if (image !== undefined && typeof image !== 'string') {
      throw new APIError('BAD_REQUEST', { message: PROFILE_IMAGE_MESSAGE });
    }
    checkImage(image);
    if (rememberMe !== undefined && typeof rememberMe !== 'boolean') {
      throw new APIError('BAD_REQUEST', { message: 'rememberMe must be true or false' });
    }
    const phone = rest.phone === undefined ? {} : { phone: check(accountPhoneField, rest.phone) };
    const age = rest.age === undefined ? {} : { age: check(accountAgeField, rest.age) };
    return { image, extra: parseUserInput(options, { ...rest, ...phone, ...age }, 'create') };
  };
  const resetTokenSeconds = 60 * 60;
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
    // A password oracle the portal does not use: its guesses would escape the sign-in lockout.
    disabledPaths: ['/verify-password'],
    secret,
    trustedOrigins: trustedOriginsOf(config),
    database: { db: database.db, type: database.engine },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: resetTokenSeconds,
      sendResetPassword: async ({ user, url }) => {
        sendInBackground(
          { to: user.email, ...passwordResetEmail({ clinic, name: user.name, url }) },
          'password reset',
        );
      },
      // The lockout's message tells a locked-out patient to reset their password: a reset
      // ends it, so the new password works at once. Any other reset link of the account's
      // ends too: an older mail must not set the password again over the new one.
      onPasswordReset: async ({ user }) => {
        await deleteVerifications(database.db, user.id);
        await rateLimits.reset(loginFailuresKey(user.email));
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
      additionalFields: {
        role: { type: 'string', required: false, input: false },
        // The patient's phone, set from the account page (migrations/0015).
        phone: { type: 'string', required: false, input: true },
        // The patient's age, set from the account page or by a first booking (migrations/0017).
        age: { type: 'number', required: false, input: true },
      },
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
        // JSON that is not an object (a string, a list, null) has no fields to read or set.
        if (
          ctx.body !== undefined &&
          (typeof ctx.body !== 'object' || !ctx.body || Array.isArray(ctx.body))
        ) {
          throw new APIError('BAD_REQUEST', { message: 'The request body must be a JSON object.' });
        }
        const body = ctx.body as Record<string, unknown> | undefined;
        switch (ctx.path) {
          case '/sign-up/email': {
            const name = check(nameField, body?.name);
            const email = check(emailField(), body?.email);
            checkNewPassword(body?.password);
            const { image, extra } = checkSignUpRest(ctx.context.options, body);
            // The library checks where the request comes from inside the endpoint, which a
            // sign-up for a registered address never reaches: the same check runs here first.
            await formCsrfMiddleware(ctx);
            const existing = await ctx.context.internalAdapter.findUserByEmail(email);
            // In place, as on update-user: a returned context loses a cleared (null) phone.
            if (body && body.phone !== undefined) body.phone = extra.phone;
            if (body && body.age !== undefined) body.age = extra.age;
            // The verification link lands where the app says the outcome, whatever was asked.
            if (!existing) {
              return {
                context: { body: { ...body, name, email, callbackURL: VERIFICATION_LANDING } },
              };
            }

            // A registered address is answered as a new one is (docs/decisions/011): the
            // password is hashed as for a new account, the owner is told by mail, and the
            // answer's user is made up from what was sent, as the library's own one would be.
            await ctx.context.password.hash(body?.password as string);
            const resetToken = generateId(24);
            await ctx.context.internalAdapter.createVerificationValue({
              value: existing.user.id,
              identifier: `reset-password:${resetToken}`,
              expiresAt: new Date(Date.now() + resetTokenSeconds * 1000),
            });
            sendInBackground(
              {
                to: existing.user.email,
                ...signUpAttemptEmail({
                  clinic,
                  name: existing.user.name,
                  signInUrl: `${config.publicUrl}${paths.login}`,
                  resetUrl: `${ctx.context.baseURL}/reset-password/${resetToken}?callbackURL=${encodeURIComponent(paths.resetPassword)}`,
                  expiresInMinutes: resetTokenSeconds / 60,
                }),
              },
              'sign-up attempt',
            );
            const now = new Date();
            const user = buildSyntheticUserOutput(ctx.context.options, {
              name,
              email,
              emailVerified: false,
              image: image ?? null,
              createdAt: now,
              updatedAt: now,
              ...extra,
              id: ctx.context.generateId({ model: 'user' }) || generateId(),
            });
            return ctx.json({
              // A session token's form; it names no session and opens nothing.
              token: generateId(32),
              user: parseUserOutput(ctx.context.options, user as unknown as User),
            });
          }
          case '/sign-in/email': {
            const email = check(loginEmailField(), body?.email);
            if (typeof body?.password !== 'string' || body.password === '') {
              throw new APIError('BAD_REQUEST', { message: messages.passwordRequired });
            }
            return { context: { body: { ...body, email } } };
          }
          case '/update-user': {
            checkImage(body?.image);
            if (!body) return;
            if (body.name !== undefined) body.name = check(nameField, body.name);
            // Set in place: the library merges a returned context without its null values, and
            // null is how a cleared phone is stored.
            if (body.phone !== undefined) body.phone = check(accountPhoneField, body.phone);
            if (body.age !== undefined) body.age = check(accountAgeField, body.age);
            return;
          }
          case '/send-verification-email':
            // In place, as on update-user: where the link lands is the portal's to say.
            if (body) body.callbackURL = VERIFICATION_LANDING;
            return;
          case '/reset-password':
          case '/change-password':
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
                // The name obeys the portal's rule; the person cannot fix it on our form, so
                // it is cleaned rather than refused. A picture is kept only from the
                // provider's own picture host.
                mapProfileToUser: (profile) => ({
                  name: cleanName(profile.name, String(profile.email ?? '')),
                  image:
                    typeof profile.image === 'string' && isProfileImage(profile.image)
                      ? profile.image
                      : undefined,
                }),
              },
            ],
          }),
        ]
      : [],
    logger: libraryLogger(log),
  });
}

export type Auth = ReturnType<typeof createAuth>;

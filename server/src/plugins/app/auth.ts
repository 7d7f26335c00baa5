import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type AccessTokens, accessTokens } from '../../auth/access-token.js';
import { type Auth, createAuth } from '../../auth/auth.js';
import { type CurrentUser, findLiveSession, findSessionUser } from '../../auth/current-user.js';
import {
  databaseRateLimitStore,
  type RateLimitStore,
  redisRateLimitStore,
} from '../../auth/rate-limit-store.js';
import { loadAuthSecret } from '../../auth/secret.js';
import { keptBetweenWrites } from '../../http/kept-between-writes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Better Auth on the portal's database; `/api/auth/*` hands it requests (auth/routes.ts). */
    auth: Auth;
    accessTokens: AccessTokens;
    /** Counters shared by every instance: the library's limits and the login throttle. */
    rateLimits: RateLimitStore;
    /** The signed-in user named by the request's session cookie, if any. */
    sessionUser(request: FastifyRequest): Promise<CurrentUser | null>;
  }
  interface FastifyRequest {
    /** Set by the `authenticate` hook from the bearer access token. */
    user: CurrentUser | null;
  }
}

const BEARER = 'bearer ';

/** An Authorization header of the bearer scheme, whose name is case-insensitive (RFC 9110). */
function isBearer(header: string | undefined): header is string {
  return header !== undefined && header.slice(0, BEARER.length).toLowerCase() === BEARER;
}

/**
 * Who is calling: the auth library (sessions, sign-in, verification and reset mail, Google), the
 * API's short-lived access tokens, and an `onRequest` hook that reads the caller from the
 * bearer token of every request. Rate limits live in Redis when configured, else in the
 * database.
 */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, database, mailer, redis } = app;
    const adminEmails: ReadonlySet<string> = new Set(config.auth.adminEmails);
    const rateLimits = redis ? redisRateLimitStore(redis) : databaseRateLimitStore(database.db);
    const secret = loadAuthSecret(config.auth.secret, config.dataDir);
    const auth = createAuth({ config, database, mailer, rateLimits, secret, log: app.log });
    const tokens = accessTokens(secret, config.publicUrl);

    app.decorate('auth', auth);
    app.decorate('accessTokens', tokens);
    app.decorate('rateLimits', rateLimits);
    app.decorateRequest('user', null);
    app.decorate('sessionUser', async (request: FastifyRequest) => {
      const session = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
      return session ? findSessionUser(app.db, session.session.id, adminEmails) : null;
    });

    // The callers behind the tokens seen lately, until a request through this app may have
    // changed any session or account, for a second at most (decision 039).
    const callers = keptBetweenWrites<{ user: CurrentUser; until: number }>(app.writes);
    const identify = async (request: FastifyRequest, token: string) => {
      const claims = await tokens.verify(token);
      if (!claims) return;
      const version = callers.version();
      const session = await findLiveSession(app.db, claims.sessionId, adminEmails);
      if (!session || session.user.id !== claims.userId) return;
      request.user = session.user;
      const until = Math.min(claims.expiresAt, session.expiresAt);
      callers.set(token, { user: session.user, until }, version);
    };
    // Every API call may carry a bearer access token; a missing or dead one leaves `user` null
    // and the route's guard decides whether that is acceptable. A request without one, or with
    // one whose caller is kept, costs a header check and nothing to wait for.
    app.addHook('onRequest', (request, _reply, done) => {
      const header = request.headers.authorization;
      if (!isBearer(header) || request.url.startsWith('/api/auth/')) return done();
      const token = header.slice(BEARER.length).trim();
      const kept = callers.get(token);
      if (kept !== undefined && Date.now() < kept.until) {
        request.user = kept.user;
        return done();
      }
      identify(request, token).then(() => done(), done);
    });
  },
  // After the security headers and the address checks: their hooks run first.
  {
    name: 'auth',
    dependencies: [
      'config',
      'database',
      'mail',
      'redis',
      'security-headers',
      'request-path',
      'write-count',
    ],
  },
);

import { STATUS_CODES } from 'node:http';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../http/errors.js';
import type { AccessTokens } from './access-token.js';
import type { Auth } from './auth.js';
import { type CurrentUser, findSessionUser } from './current-user.js';
import type { RateLimitRule, RateLimitStore } from './rate-limit-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    auth: Auth;
    accessTokens: AccessTokens;
    /** The signed-in user named by the request's session cookie, if any. */
    sessionUser(request: FastifyRequest): Promise<CurrentUser | null>;
  }
  interface FastifyRequest {
    /** Set by the `authenticate` hook from the bearer access token. */
    user: CurrentUser | null;
  }
}

/**
 * Failed sign-ins per account: after this many in the window, sign-in for that address pauses
 * until the window ends. Short enough that an attacker cannot keep a patient out for long.
 */
export const LOGIN_FAILURES: RateLimitRule = { window: 10 * 60, max: 8 };

/** The rate-limit key of an account's failed sign-ins (its address in lower case). */
export const loginFailuresKey = (email: string) => `login-failures:${email.trim().toLowerCase()}`;

/** Set by the portal itself on requests it hands to the auth library; see `forward`. */
export const CLIENT_IP_HEADER = 'x-portal-client-ip';

export interface AuthPluginOptions {
  auth: Auth;
  accessTokens: AccessTokens;
  rateLimits: RateLimitStore;
  adminEmails: ReadonlySet<string>;
}

/** Mounts the auth library at /api/auth and reads the caller's identity for the API. */
export async function authPlugin(app: FastifyInstance, options: AuthPluginOptions) {
  const { auth, rateLimits, adminEmails } = options;
  app.decorate('auth', auth);
  app.decorate('accessTokens', options.accessTokens);
  app.decorateRequest('user', null);
  app.decorate('sessionUser', async (request: FastifyRequest) => {
    const session = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
    return session ? findSessionUser(app.db, session.session.id, adminEmails) : null;
  });

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    // The body as the client sent it (see the parser below): the library parses it itself.
    const body =
      typeof request.body !== 'string' || request.method === 'GET' ? undefined : request.body;
    const headers = fromNodeHeaders(request.headers);
    // The client's address as Fastify resolved it (honouring TRUST_PROXY), under a header no
    // client can set: the auth library keys its rate limits on it.
    headers.set(CLIENT_IP_HEADER, request.ip);
    const response = await auth.handler(
      new Request(new URL(request.url, app.config.publicUrl), {
        method: request.method,
        headers,
        body,
      }),
    );
    reply.code(response.status);
    for (const [name, value] of response.headers) {
      if (name !== 'set-cookie' && name !== 'content-length') reply.header(name, value);
    }
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    return { status: response.status, text: await response.text() };
  };

  await app.register(async (scope) => {
    // JSON bodies reach the auth library as the bytes the client sent. Parsing them here only
    // to serialise them again would cost a second pass, and overflow the stack on a body
    // nested thousands of levels deep.
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    scope.route({
      method: ['GET', 'POST'],
      url: '/api/auth/*',
      schema: { hide: true },
      async handler(request, reply) {
        const path = request.url.split('?', 1)[0];
        const email = path === '/api/auth/sign-in/email' ? accountOf(request.body) : null;
        const key = loginFailuresKey(email ?? '');
        if (email) {
          const { allowed, retryAfter } = await rateLimits.peek(key, LOGIN_FAILURES);
          if (!allowed) {
            const minutes = Math.ceil((retryAfter ?? 60) / 60);
            return reply
              .code(429)
              .header('retry-after', String(retryAfter))
              .send(
                errorBody(
                  429,
                  `Too many failed sign-ins for this account. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or reset your password.`,
                ),
              );
          }
        }
        const { status, text } = await forward(request, reply);
        if (email && status === 401) await rateLimits.consume(key, LOGIN_FAILURES);
        if (email && status === 200) await rateLimits.reset(key);
        if (status >= 400 && !hasMessage(text)) {
          // The library answers some refusals with no body (an unknown endpoint, a wrong
          // method): every API error says what happened, in JSON.
          const message =
            status === 404
              ? `No sign-in service at ${request.method} ${path}`
              : (STATUS_CODES[status] ?? 'The request was refused.');
          return reply.type('application/json; charset=utf-8').send(errorBody(status, message));
        }
        return reply.send(text);
      },
    });
  });

  // Every API call may carry a bearer access token; a missing or dead one leaves `user` null
  // and the route's guard decides whether that is acceptable.
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ') || request.url.startsWith('/api/auth/')) return;
    const claims = await options.accessTokens.verify(header.slice('Bearer '.length).trim());
    if (!claims) return;
    const user = await findSessionUser(app.db, claims.sessionId, adminEmails);
    if (user && user.id === claims.userId) request.user = user;
  });
}

/** Whether an answer's text is a JSON object with a message for the person. */
function hasMessage(text: string): boolean {
  try {
    const message = (JSON.parse(text) as { message?: unknown } | null)?.message;
    return typeof message === 'string' && message.trim() !== '';
  } catch {
    return false;
  }
}

function accountOf(raw: unknown): string | null {
  let body: unknown;
  try {
    body = typeof raw === 'string' ? JSON.parse(raw) : raw;
  } catch {
    return null;
  }
  const email = (body as { email?: unknown } | null | undefined)?.email;
  return typeof email === 'string' && email.trim() ? email.trim().toLowerCase() : null;
}

import { STATUS_CODES } from 'node:http';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../http/errors.js';
import { CLIENT_IP_HEADER } from './auth.js';
import { lockoutMessages, settlePasswordAttempt, startPasswordAttempt } from './login-failures.js';

const SIGN_IN = '/api/auth/sign-in/email';
const CHANGE_PASSWORD = '/api/auth/change-password';
const SIGN_UP = '/api/auth/sign-up/email';

/**
 * `/api/auth/*`: the auth library's own endpoints (sign-up, sign-in, verification, reset,
 * Google), reached through the portal so that they share its address, its security headers and
 * its error shape. Wrong passwords (at sign-in, and the current one when changing it) are counted
 * per account here, and an account with too many pauses before the library is asked.
 */
export async function authRoutes(app: FastifyInstance) {
  const { auth, rateLimits } = app;

  const forward = async (request: FastifyRequest, reply: FastifyReply, url: URL) => {
    // The body as the client sent it (see the parser below): the library parses it itself.
    const body =
      typeof request.body !== 'string' || request.method === 'GET' ? undefined : request.body;
    const headers = fromNodeHeaders(request.headers);
    // The client's address as Fastify resolved it (honouring TRUST_PROXY), under a header no
    // client can set: the auth library keys its rate limits on it.
    headers.set(CLIENT_IP_HEADER, request.ip);
    const response = await auth.handler(
      new Request(url, {
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

  // JSON bodies reach the auth library as the bytes the client sent. Parsing them here only to
  // serialise them again would cost a second pass, and overflow the stack on a body nested
  // thousands of levels deep.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  app.route({
    method: ['GET', 'POST'],
    url: '/auth/*',
    schema: { hide: true },
    async handler(request, reply) {
      // The endpoint as the library will read it from this URL, not as the request spelt it: a
      // fragment or a backslash ('/sign-in/email#x', '/sign-in\\email') reach the same sign-in,
      // and must not escape the lockout.
      const url = new URL(request.url, app.config.publicUrl);
      const path = url.pathname;
      const email =
        path === SIGN_IN
          ? await accountOf(request.body)
          : path === CHANGE_PASSWORD
            ? ((await app.sessionUser(request))?.email ?? null)
            : null;
      if (email) {
        const retryAfter = await startPasswordAttempt(rateLimits, email);
        if (retryAfter !== null) {
          const message = path === SIGN_IN ? lockoutMessages.signIn : lockoutMessages.password;
          return reply
            .code(429)
            .header('retry-after', String(retryAfter))
            .send(errorBody(429, message(retryAfter)));
        }
      }
      let answer: { status: number; text: string } | undefined;
      try {
        answer = await forward(request, reply, url);
        if (path === SIGN_UP && lostSignUpRace(answer)) answer = await forward(request, reply, url);
      } finally {
        if (email) await settlePasswordAttempt(rateLimits, email, outcomeOf(path, answer));
      }
      const { status, text } = answer;
      if (status === 429) {
        // The library's own limits (per address and path) say when in a header of their own:
        // told as HTTP says it, in the portal's error shape, with the wait in the message.
        const seconds = Number(reply.getHeader('x-retry-after')) || 60;
        const minutes = Math.ceil(seconds / 60);
        return reply
          .header('retry-after', String(seconds))
          .type('application/json; charset=utf-8')
          .send(
            errorBody(
              429,
              `Too many requests from this address. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
            ),
          );
      }
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
}

/**
 * Whether a sign-up failed as one does that lost a race for its address: the library found no
 * account, then the insert met the unique email. Asked again, the library finds the account and
 * answers as for any registered address (200, its owner mailed), so the race tells no more than
 * a sign-up for a taken address does.
 */
function lostSignUpRace(answer: { status: number; text: string }): boolean {
  return answer.status === 422 && answer.text.includes('"FAILED_TO_CREATE_USER"');
}

/** What a sign-in or a password change came to, for the account's count of wrong passwords. */
function outcomeOf(path: string, answer: { status: number; text: string } | undefined) {
  if (!answer) return 'other';
  if (isWrongPassword(path, answer.status, answer.text)) return 'wrong';
  return path === SIGN_IN && answer.status === 200 ? 'signed-in' : 'other';
}

/** Whether the library refused the password it was given: at sign-in, or the current one. */
function isWrongPassword(path: string, status: number, text: string): boolean {
  if (path === SIGN_IN) return status === 401;
  return status === 400 && text.includes('"INVALID_PASSWORD"');
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

/**
 * The account a sign-in names, read from its body as the library reads it (`Request.json()`,
 * which also skips a byte order mark that `JSON.parse` refuses): else a sign-in the library
 * accepts would name no account here, and escape the lockout.
 */
async function accountOf(raw: unknown): Promise<string | null> {
  let body: unknown;
  try {
    body = typeof raw === 'string' ? await new Response(raw).json() : raw;
  } catch {
    return null;
  }
  const email = (body as { email?: unknown } | null | undefined)?.email;
  return typeof email === 'string' && email.trim() ? email.trim().toLowerCase() : null;
}

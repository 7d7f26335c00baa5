import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../http/errors.js';
import { callerOf, isOwnEmail, requireUser } from './guards.js';
import { sameOriginOnly, trustedOriginsOf } from './same-origin.js';

const emailParam = z.object({ email: z.string().min(1).max(254) });
const error = z.object({ statusCode: z.number(), error: z.string(), message: z.string() });

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  // Exchanges the session cookie for a short-lived API access token ("user sync" in the spec).
  // The cookie is the credential, and browsers send it from any site: only the portal's own
  // pages may ask (a token handed to another site's script would open the whole API).
  app.put(
    '/user/:email',
    {
      onRequest: sameOriginOnly(trustedOriginsOf(app.config)),
      schema: {
        summary: 'Issue an API access token for the signed-in user',
        tags: ['accounts'],
        params: emailParam,
        body: z.object({ email: z.string().optional() }).nullish(),
        response: {
          200: z.object({ token: z.string(), expiresAt: z.string() }),
          401: error,
          403: error,
        },
      },
    },
    async (request, reply) => {
      const user = await app.sessionUser(request);
      if (!user) return reply.code(401).send(errorBody(401, 'Please log in first.'));
      if (!isOwnEmail(user, request.params.email)) {
        return reply.code(403).send(errorBody(403, 'You can only sign in as yourself.'));
      }
      const { token, expiresAt } = await app.accessTokens.issue({
        userId: user.id,
        sessionId: user.sessionId,
      });
      reply.header('cache-control', 'no-store');
      return { token, expiresAt: expiresAt.toISOString() };
    },
  );

  app.get(
    '/admin/:email',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Whether the caller is an administrator',
        tags: ['accounts'],
        security: [{ bearer: [] }],
        params: emailParam,
        response: { 200: z.object({ admin: z.boolean() }), 401: error, 403: error },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      if (!isOwnEmail(caller, request.params.email)) {
        return reply.code(403).send(errorBody(403, 'You can only ask about your own account.'));
      }
      return { admin: caller.role === 'admin' };
    },
  );
};

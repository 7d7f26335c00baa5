import { messages, userSchema, usersQuerySchema } from '@doctors-portal/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminActor } from '../audit/log.js';
import type { CurrentUser } from '../auth/current-user.js';
import { callerOf, isOwnEmail, requireAdmin, requireUser } from '../auth/guards.js';
import { sameOriginOnly, trustedOriginsOf } from '../auth/same-origin.js';
import { errorBody, errorResponses, HttpError } from '../http/errors.js';
import { revokeAdmin } from './admin-revocation.js';
import {
  type Accounts,
  AdminChangeRefused,
  countAdmins,
  findUserByEmail,
  listUsers,
  promoteToAdmin,
  removeUser,
  type UserRecord,
} from './repository.js';

const emailParam = z.object({ email: z.string().trim().min(1).max(254) });
/** The caller's own address in the path: compared as it is sent (trimmed by the comparison). */
const ownEmailParam = z.object({ email: z.string().min(1).max(254) });

export const userErrors = {
  noSuchUser: (email: string) => `No account uses ${email}: the person must sign up first.`,
  removeSelf: 'You cannot remove your own account: ask another admin to do it.',
  lastAdmin: 'The clinic needs at least one admin.',
  notAdminAnyMore: 'Only the clinic’s administrators can do this.',
  revokeSelf: 'You cannot take away your own admin role: ask another admin to do it.',
  configuredAdmin: (email: string) =>
    `${email} is an admin through the server’s ADMIN_EMAILS setting: take the address out of it there.`,
};

/** Make-admin answers a patient with the spec's own words (section 8), which the screen shows. */
async function requireAdminToMakeAdmins(request: FastifyRequest, reply: FastifyReply) {
  if (!request.user) return requireUser(request, reply);
  if (request.user.role !== 'admin') {
    return reply.code(403).send(errorBody(403, messages.makeAdminForbidden));
  }
}

/** An admin's change refused inside its transaction: the clinic would be left without an admin. */
function refused(err: unknown, reply: FastifyReply) {
  if (!(err instanceof AdminChangeRefused)) throw err;
  return err.reason === 'last-admin'
    ? reply.code(409).send(errorBody(409, userErrors.lastAdmin))
    : reply.code(403).send(errorBody(403, userErrors.notAdminAnyMore));
}

function toApiUser({ id, email, name, image, admin, emailVerified, createdAt }: UserRecord) {
  return {
    _id: id,
    email,
    displayName: name,
    photoURL: image,
    ...(admin ? { Role: 'Admin' as const } : {}),
    emailVerified,
    createdAt,
  };
}

/**
 * `/api/user…`, `/api/users` and `/api/admin/…`: the signed-in user's API access token and
 * whether they are an administrator; the admin's user list, promotion to admin and removal of
 * accounts (spec sections 2 and 7). The admin guards run as the request arrives, before its body
 * is read or validated, so a caller without the role gets 401 or 403 whatever they send.
 * Taking the role back mirrors giving it, and never leaves the clinic without an admin.
 */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const adminEmails: ReadonlySet<string> = new Set(app.config.auth.adminEmails);
  const accounts: Accounts = { db: app.db, engine: app.database.engine, adminEmails };

  /**
   * The account an admin acts on, when it is not their own: 404 for an address nobody signed up
   * with; 409 for their own (`own` says why, or that the clinic would have no admin left).
   */
  async function anotherAccount(email: string, caller: CurrentUser, own: string) {
    const user = await findUserByEmail(app.db, adminEmails, email);
    if (!user) throw new HttpError(404, userErrors.noSuchUser(email));
    if (user.id === caller.id) {
      const last = (await countAdmins(app.db, adminEmails)) <= 1;
      throw new HttpError(409, last ? userErrors.lastAdmin : own);
    }
    return user;
  }

  // Exchanges the session cookie for a short-lived API access token ("user sync" in the spec).
  // The cookie is the credential, and browsers send it from any site: only the portal's own
  // pages may ask (a token handed to another site's script would open the whole API).
  app.put(
    '/user/:email',
    {
      onRequest: sameOriginOnly(trustedOriginsOf(app.config)),
      schema: {
        operationId: 'issueAccessToken',
        summary: 'Issue an API access token for the signed-in user',
        description:
          'Authorised by the session cookie that signing in at `/api/auth/*` set, and only for ' +
          "requests from the portal's own pages.",
        tags: ['accounts'],
        security: [],
        params: ownEmailParam,
        body: z.object({ email: z.string().optional() }).nullish(),
        response: {
          200: z.object({ token: z.string(), expiresAt: z.string() }),
          ...errorResponses(400, 401, 403),
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
      onRequest: requireUser,
      schema: {
        operationId: 'isAdmin',
        summary: 'Whether the caller is an administrator',
        tags: ['accounts'],
        security: [{ bearer: [] }],
        params: ownEmailParam,
        response: { 200: z.object({ admin: z.boolean() }), ...errorResponses(400, 401, 403) },
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

  app.get(
    '/users',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'listUsers',
        summary: 'One page of user accounts, oldest first',
        description:
          'The total number of accounts is in the `X-Total-Count` header. `Role` is "Admin" for ' +
          'administrators and absent for patients.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        querystring: usersQuerySchema,
        response: { 200: z.array(userSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { users, total } = await listUsers(app.db, adminEmails, request.query);
      reply.header('x-total-count', String(total)).header('cache-control', 'private, no-store');
      return users.map(toApiUser);
    },
  );

  app.put(
    '/user/admin/:email',
    {
      onRequest: requireAdminToMakeAdmins,
      schema: {
        operationId: 'makeAdmin',
        summary: 'Make the account using this email an administrator',
        description: '`modifiedCount` is 1 when the account was promoted, 0 when already admin.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        params: emailParam,
        response: {
          200: z.object({ modifiedCount: z.number() }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { email } = request.params;
      const user = await findUserByEmail(app.db, adminEmails, email);
      if (!user) return reply.code(404).send(errorBody(404, userErrors.noSuchUser(email)));
      const caller = callerOf(request);
      const modifiedCount = user.admin ? 0 : await promoteToAdmin(app.db, user, adminActor(caller));
      if (modifiedCount > 0) {
        request.log.info({ userId: user.id, by: caller.id }, 'admin role granted');
      }
      return { modifiedCount };
    },
  );

  app.delete(
    '/user/admin/:email',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'revokeAdmin',
        summary: 'Take the administrator role from the account using this email',
        description:
          '`modifiedCount` is 1 when the role was taken, 0 when the account was no admin. 409 for ' +
          'your own role, the last admin, or an admin by the `ADMIN_EMAILS` setting.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        params: emailParam,
        response: {
          200: z.object({ modifiedCount: z.number() }),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const user = await anotherAccount(request.params.email, caller, userErrors.revokeSelf);
      // Such an admin would stay one whatever their role: the setting decides.
      if (user.admin && user.emailVerified && adminEmails.has(user.email)) {
        return reply.code(409).send(errorBody(409, userErrors.configuredAdmin(user.email)));
      }
      try {
        const modifiedCount = user.admin
          ? await revokeAdmin(accounts, adminActor(caller), user)
          : 0;
        if (modifiedCount > 0) {
          request.log.info({ userId: user.id, by: caller.id }, 'admin role revoked');
        }
        return { modifiedCount };
      } catch (err) {
        return refused(err, reply);
      }
    },
  );

  app.delete(
    '/user/:email',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'removeUser',
        summary: 'Remove an account, keeping its bookings on the clinic’s records',
        description:
          'The account, its sessions and its sign-in methods are deleted, so its tokens stop at ' +
          "once. Its bookings stay, with the patient's name and email, no longer linked to an " +
          'account. 409 for your own account or the last admin.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        params: emailParam,
        response: {
          200: z.object({ deletedCount: z.number() }),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const user = await anotherAccount(request.params.email, caller, userErrors.removeSelf);
      try {
        const deletedCount = await removeUser(accounts, adminActor(caller), user);
        if (deletedCount > 0) {
          request.log.info({ userId: user.id, by: caller.id }, 'account removed by an admin');
        }
        return { deletedCount };
      } catch (err) {
        return refused(err, reply);
      }
    },
  );
};

import { messages } from '@doctors-portal/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../http/errors.js';
import type { CurrentUser } from './current-user.js';

/** Route guards: 401 without a live access token, 403 for a signed-in user lacking the role. */
export async function requireUser(request: FastifyRequest, reply: FastifyReply) {
  if (!request.user) {
    return reply.code(401).send(errorBody(401, messages.sessionEnded));
  }
}

export async function requireAdmin(request: FastifyRequest, reply: FastifyReply) {
  if (!request.user) return requireUser(request, reply);
  if (request.user.role !== 'admin') {
    return reply.code(403).send(errorBody(403, 'Only the clinic’s administrators can do this.'));
  }
}

/** The caller of a route behind `requireUser`. */
export function callerOf(request: FastifyRequest): CurrentUser {
  if (!request.user) throw new Error('callerOf used on a route without requireUser');
  return request.user;
}

/** Whether `email` (from a path or query) names the caller: addresses compare case-insensitively. */
export function isOwnEmail(caller: CurrentUser, email: string): boolean {
  return caller.email.toLowerCase() === email.trim().toLowerCase();
}

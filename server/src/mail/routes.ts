import { mailFailuresSchema } from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin } from '../auth/guards.js';
import { errorBody, errorResponses } from '../http/errors.js';
import { listFailedMail, retryFailedMail } from './failures.js';

export const mailErrors = { noSuchFailure: 'No such failed message.' };

// A malformed id names no message: 404 like an unknown one.
const failureParams = z.object({ id: z.string().max(100) });

/**
 * `/api/mail/…`: the back office's view of the mail the portal failed to send (the relay
 * refused it, or it gave up after ten attempts), and a way to send one again now.
 */
export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/mail/failures',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'listMailFailures',
        summary: 'The mail the portal failed to send, newest first',
        description:
          'Every queued message whose last attempt failed: still retrying (`nextAttemptAt` is ' +
          'when) or given up after ten attempts (`nextAttemptAt` null), with the relay’s last ' +
          'error. At most the 200 newest.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        response: { 200: mailFailuresSchema, ...errorResponses(401, 403) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { failures: await listFailedMail(app.db) };
    },
  );

  app.post(
    '/mail/failures/:id/retry',
    {
      onRequest: requireAdmin,
      attachValidation: true,
      schema: {
        operationId: 'retryMailFailure',
        summary: 'Send a failed message again now',
        description:
          'The message is due at once, with a fresh round of attempts; it stays in the list ' +
          'until the relay takes it. 404 for a message that is not (or no longer) failed.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        params: failureParams,
        response: { 204: z.null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      if (request.validationError || !(await retryFailedMail(app.db, request.params.id))) {
        return reply.code(404).send(errorBody(404, mailErrors.noSuchFailure));
      }
      app.mailQueue.wake();
      return reply.code(204).send(null);
    },
  );
};

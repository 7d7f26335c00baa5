import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema as error } from '../http/errors.js';

const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['reachable', 'unreachable']),
});

/** `/api/health`: for load balancers and monitoring. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Whether the portal and its database answer',
        tags: ['system'],
        security: [],
        response: { 200: healthSchema, 400: error, 503: healthSchema },
      },
    },
    async (request, reply) => {
      try {
        await app.database.ping();
        return { status: 'ok' as const, database: 'reachable' as const };
      } catch (error) {
        request.log.warn({ err: error }, 'database ping failed');
        return reply.code(503).send({ status: 'degraded', database: 'unreachable' });
      }
    },
  );
};

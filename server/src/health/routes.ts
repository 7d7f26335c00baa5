import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['reachable', 'unreachable']),
});

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        summary: 'Whether the portal and its database answer',
        tags: ['system'],
        response: { 200: healthSchema, 503: healthSchema },
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

import { clinicSchema } from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clinicDetails } from './details.js';

export const clinicRoutes: FastifyPluginAsyncZod = async (app) => {
  const clinic = clinicDetails(app.config);
  app.get(
    '/clinic',
    {
      schema: {
        summary: "The clinic's name, contact details, opening hours and time zone",
        tags: ['clinic'],
        response: { 200: clinicSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return clinic;
    },
  );
};

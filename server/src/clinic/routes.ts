import { clinicSchema } from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema as error } from '../http/errors.js';
import { clinicDetails } from './details.js';

/** `/api/clinic`: what the landing page and the mail say about the clinic. */
export const clinicRoutes: FastifyPluginAsyncZod = async (app) => {
  const clinic = clinicDetails(app.config);
  app.get(
    '/clinic',
    {
      schema: {
        operationId: 'getClinic',
        summary: "The clinic's name, contact details, opening hours and time zone",
        tags: ['clinic'],
        security: [],
        response: { 200: clinicSchema, 400: error },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return clinic;
    },
  );
};

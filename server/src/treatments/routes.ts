import { serviceSchema } from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema as error } from '../http/errors.js';
import { listTreatments } from './repository.js';

/** `/api/service`: the clinic's services, which are its bookable treatments (decision 003). */
export const treatmentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/service',
    {
      schema: {
        operationId: 'listServices',
        summary: "The clinic's services (its bookable treatments), by name",
        tags: ['clinic'],
        security: [],
        response: { 200: z.array(serviceSchema), 400: error },
      },
    },
    async () => {
      const treatments = await listTreatments(app.db);
      return treatments.map((treatment) => ({ _id: treatment.id, name: treatment.name }));
    },
  );
};

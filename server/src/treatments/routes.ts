import { serviceSchema } from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listTreatments } from './repository.js';

export const treatmentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/service',
    {
      schema: {
        summary: "The clinic's services (its bookable treatments), by name",
        tags: ['clinic'],
        response: { 200: z.array(serviceSchema) },
      },
    },
    async () => {
      const treatments = await listTreatments(app.db);
      return treatments.map((treatment) => ({ _id: treatment.id, name: treatment.name }));
    },
  );
};

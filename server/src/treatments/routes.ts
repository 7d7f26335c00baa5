import {
  newTreatmentSchema,
  serviceSchema,
  slotsHeldSchema,
  treatmentChangeSchema,
  treatmentSchema,
} from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminActor } from '../audit/log.js';
import { callerOf, requireAdmin } from '../auth/guards.js';
import { clinicMoment, clock } from '../bookings/clock.js';
import { errorResponseSchema as error, errorBody } from '../http/errors.js';
import { changeTreatment, createTreatment, SlotsHeldError, toApiTreatment } from './catalogue.js';
import { listCatalogue, listTreatments } from './repository.js';

// An id names a treatment or nothing: a malformed one is 404 like an unknown one.
const treatmentParams = z.object({ id: z.string().max(100) });

/**
 * `/api/service`: the clinic's services, which are its bookable treatments (decision 003); and
 * `/api/treatments…` (administrators only): the catalogue the clinic edits, retired treatments
 * included (decision 018).
 */
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

  app.get(
    '/treatments',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'listTreatments',
        summary: "The clinic's treatments, retired ones included, in display order",
        description:
          'Prices are in dollars; slots are labels such as `9:00 AM - 9:30 AM`, from the ' +
          'earliest. A retired treatment (`retired: true`) is offered to nobody.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        response: { 200: z.array(treatmentSchema), 400: error, 401: error, 403: error },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return (await listCatalogue(app.db)).map(toApiTreatment);
    },
  );

  app.post(
    '/treatments',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'createTreatment',
        summary: 'Add a treatment, offered from now on',
        description:
          'The price is in dollars (more than 0, at most 100,000, whole cents). The slots are ' +
          'labels such as `9:00 AM - 9:30 AM`, from the earliest, none twice and none ' +
          'overlapping. 409 when a treatment (retired ones too) has the same name in any case.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        body: newTreatmentSchema,
        response: { 201: treatmentSchema, 400: error, 401: error, 403: error, 409: error },
      },
    },
    async (request, reply) => {
      const record = await createTreatment(app.db, adminActor(callerOf(request)), request.body);
      return reply.code(201).send(toApiTreatment(record));
    },
  );

  app.patch(
    '/treatments/:id',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'changeTreatment',
        summary: 'Change, retire or bring back a treatment',
        description:
          'Any of `name`, `description`, `price` and `slots` (as for adding one); ' +
          '`retired: true` retires it (it leaves the booking page; its bookings stay as they ' +
          'are) and `retired: false` offers it again. Bookings keep the name and price they were ' +
          'booked with. A change leaving out a slot time that a booking from today on holds is ' +
          "refused with those bookings (409, reason 'slots-held').",
        tags: ['admin'],
        security: [{ bearer: [] }],
        params: treatmentParams,
        body: treatmentChangeSchema,
        response: {
          200: treatmentSchema,
          400: error,
          401: error,
          403: error,
          404: error,
          409: z.union([slotsHeldSchema, error]),
        },
      },
    },
    async (request, reply) => {
      const { today } = clinicMoment(app.config.clinic.timeZone, clock.now());
      try {
        const record = await changeTreatment(
          app.db,
          adminActor(callerOf(request)),
          request.params.id,
          request.body,
          today,
        );
        return toApiTreatment(record);
      } catch (failure) {
        if (!(failure instanceof SlotsHeldError)) throw failure;
        return reply.code(409).send({
          ...errorBody(409, failure.message),
          statusCode: 409 as const,
          reason: 'slots-held' as const,
          bookings: failure.bookings,
        });
      }
    },
  );
};

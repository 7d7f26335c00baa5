import { doctorSchema, newDoctorSchema } from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminActor } from '../audit/log.js';
import { callerOf, requireAdmin } from '../auth/guards.js';
import type { Doctor } from '../db/schema.js';
import { errorResponseSchema as error, errorBody } from '../http/errors.js';
import { listTreatments } from '../treatments/repository.js';
import { deleteDoctor, insertDoctor, listDoctors } from './repository.js';

export const doctorErrors = {
  duplicateEmail: 'A doctor with this email is already listed.',
  unknownSpecialty: (specialty: string) =>
    `${specialty} is not one of the clinic's services: choose the specialty from the list.`,
  foreignImage: 'Upload the photo with the form first: the image must be one the portal stored.',
};

function toApiDoctor(doctor: Doctor) {
  return {
    _id: doctor.id,
    name: doctor.name,
    email: doctor.email,
    specialty: doctor.specialty,
    image: doctor.image_url,
  };
}

/**
 * `/api/doctor…`: add, list and delete the clinic's doctors (spec section 7: POST, GET,
 * DELETE /doctor).
 * The guards run as the request arrives, before its body is read or validated, so a caller
 * without the role gets 401 or 403 whatever they send.
 */
export const doctorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/doctor',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'addDoctor',
        summary: 'Add a doctor',
        description:
          'The specialty must be one of the services (`GET /api/service`) and the image a URL ' +
          'that `POST /api/image` answered. 409 when a doctor with this email (in any case) is ' +
          'already listed.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        body: newDoctorSchema,
        response: {
          201: z.object({ insertedId: z.string() }),
          400: error,
          401: error,
          403: error,
          409: error,
        },
      },
    },
    async (request, reply) => {
      const { name, email, specialty, image } = request.body;
      const services = await listTreatments(app.db);
      if (!services.some((service) => service.name === specialty)) {
        return reply.code(400).send(errorBody(400, doctorErrors.unknownSpecialty(specialty)));
      }
      const imageName = app.images.nameOf(image);
      if (!imageName || !(await app.images.exists(imageName))) {
        return reply.code(400).send(errorBody(400, doctorErrors.foreignImage));
      }
      const insertedId = await insertDoctor(
        app.db,
        { name, email, specialty, image_url: image },
        adminActor(callerOf(request)),
      );
      if (!insertedId) return reply.code(409).send(errorBody(409, doctorErrors.duplicateEmail));
      return reply.code(201).send({ insertedId });
    },
  );

  app.get(
    '/doctor',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'listDoctors',
        summary: "The clinic's doctors, by name",
        tags: ['admin'],
        security: [{ bearer: [] }],
        response: { 200: z.array(doctorSchema), 400: error, 401: error, 403: error },
      },
    },
    async (_request, reply) => {
      const doctors = await listDoctors(app.db);
      reply.header('cache-control', 'private, no-store');
      return doctors.map(toApiDoctor);
    },
  );

  app.delete(
    '/doctor/:email',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'deleteDoctor',
        summary: 'Delete a doctor and their stored photo',
        description: '`deletedCount` is 0 when no doctor is listed under this email.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        params: z.object({ email: z.string().trim().min(1).max(254) }),
        response: {
          200: z.object({ deletedCount: z.number() }),
          400: error,
          401: error,
          403: error,
        },
      },
    },
    async (request) => {
      const removed = await deleteDoctor(
        app.db,
        request.params.email,
        adminActor(callerOf(request)),
      );
      if (!removed) return { deletedCount: 0 };
      const imageName = app.images.nameOf(removed.imageUrl);
      if (imageName && !removed.stillShown) {
        // The doctor is gone whatever happens to the file; a photo left behind is only logged.
        await app.images.remove(imageName).catch((err: unknown) => {
          request.log.error({ err, image: imageName }, 'could not delete a doctor’s photo');
        });
      }
      return { deletedCount: 1 };
    },
  );
};

import {
  availableDoctorSchema,
  availableDoctorsQuerySchema,
  doctorBookedSchema,
  doctorChangeSchema,
  doctorSchema,
  doctorUpdateSchema,
  type IsoDate,
  newDoctorSchema,
  weekdayOf,
} from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { adminActor } from '../audit/log.js';
import { callerOf, requireAdmin } from '../auth/guards.js';
import { availableDoctorsFor } from '../bookings/availability.js';
import { clinicMoment, clock } from '../bookings/clock.js';
import { upcomingBookingsWithDoctor } from '../bookings/repository.js';
import type { Booking, Database } from '../db/schema.js';
import {
  errorResponseSchema as error,
  errorBody,
  errorResponses,
  HttpError,
} from '../http/errors.js';
import { listTreatments } from '../treatments/repository.js';
import {
  type DoctorRecord,
  deleteDoctor,
  doctorFields,
  findDoctor,
  insertDoctor,
  listDoctors,
  photoShown,
  updateDoctor,
} from './repository.js';

export const doctorErrors = {
  duplicateEmail: 'A doctor with this email is already listed.',
  unknownSpecialty: (specialty: string) =>
    `${specialty} is not one of the clinic's services: choose the specialty from the list.`,
  foreignImage: 'Upload the photo with the form first: the image must be one the portal stored.',
  unknownTreatment: (id: string) =>
    `${id} is not one of the treatments the clinic offers: choose the treatments from the list.`,
  noSuchDoctor: 'There is no such doctor.',
  hasBookings: (count: number) =>
    `This doctor still has ${count === 1 ? 'an upcoming appointment' : `${count} upcoming appointments`}: ` +
    'cancel or move them first.',
};

const toApiDoctor = (doctor: DoctorRecord) => ({ _id: doctor.id, ...doctorFields(doctor) });

/**
 * The treatments a doctor performs once `specialty` and `treatmentIds` are applied: the
 * specialty's treatment first, then the others in the order given. The specialty must name an
 * offered treatment and every id must be one (400 otherwise). `current` is the stored list, kept
 * (behind a new specialty's treatment) when no list is given.
 */
async function treatmentsOf(
  db: Kysely<Database>,
  specialty: string,
  given: string[] | undefined,
  current: string[],
  { specialtyChanged }: { specialtyChanged: boolean },
): Promise<string[]> {
  const offered = await listTreatments(db);
  const named = offered.find((treatment) => treatment.name === specialty);
  if (specialtyChanged && !named) {
    throw new HttpError(400, doctorErrors.unknownSpecialty(specialty));
  }
  for (const id of given ?? []) {
    if (!offered.some((treatment) => treatment.id === id)) {
      throw new HttpError(400, doctorErrors.unknownTreatment(id));
    }
  }
  const list = given ?? current;
  if (!named) return [...list];
  return [named.id, ...list.filter((id) => id !== named.id)];
}

const sortedDates = (dates: IsoDate[]) => [...new Set(dates)].sort();

/** A booking of the doctor's, as an answer lists it (`heldSlotSchema`). */
const heldSlot = (booking: Pick<Booking, 'id' | 'date' | 'slot' | 'patient_name'>) => ({
  _id: booking.id,
  date: booking.date,
  slot: booking.slot,
  patientName: booking.patient_name,
});

/**
 * `/api/doctor…` and `/api/doctors/available`: add, list, change and delete the clinic's doctors
 * (spec section 7: POST, GET, DELETE /doctor; PATCH is ours), and the doctors free for a slot.
 * The admin guards run as the request arrives, before its body is read or validated, so a caller
 * without the role gets 401 or 403 whatever they send.
 */
export const doctorRoutes: FastifyPluginAsyncZod = async (app) => {
  const imageIsOurs = async (image: string) => {
    const name = app.images.nameOf(image);
    return name !== null && (await app.images.exists(name));
  };

  app.post(
    '/doctor',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'addDoctor',
        summary: 'Add a doctor',
        description:
          'The specialty must be one of the services (`GET /api/service`) and the image a URL ' +
          'that `POST /api/image` answered. The doctor performs the specialty’s treatment and ' +
          'any `treatmentIds` given, works `workDays` (default: every day) and is off on ' +
          '`daysOff`. 409 when a doctor with this email (in any case) is already listed.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        body: newDoctorSchema,
        response: {
          201: z.object({ insertedId: z.string() }),
          ...errorResponses(400, 401, 403, 409),
        },
      },
    },
    async (request, reply) => {
      const { name, email, specialty, image } = request.body;
      const services = await listTreatments(app.db);
      if (!services.some((service) => service.name === specialty)) {
        return reply.code(400).send(errorBody(400, doctorErrors.unknownSpecialty(specialty)));
      }
      const treatmentIds = await treatmentsOf(app.db, specialty, request.body.treatmentIds, [], {
        specialtyChanged: true,
      });
      if (!(await imageIsOurs(image))) {
        return reply.code(400).send(errorBody(400, doctorErrors.foreignImage));
      }
      const insertedId = await insertDoctor(
        app.db,
        {
          name,
          email,
          specialty,
          image_url: image,
          treatmentIds,
          workDays: request.body.workDays ?? [0, 1, 2, 3, 4, 5, 6],
          daysOff: sortedDates(request.body.daysOff ?? []),
        },
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
        summary: "The clinic's doctors, by name, with their treatments, work days and days off",
        tags: ['admin'],
        security: [{ bearer: [] }],
        response: { 200: z.array(doctorSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (_request, reply) => {
      const doctors = await listDoctors(app.db);
      reply.header('cache-control', 'private, no-store');
      return doctors.map(toApiDoctor);
    },
  );

  app.patch(
    '/doctor/:id',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'updateDoctor',
        summary: "Change a doctor's details, treatments, work days or days off",
        description:
          'Any of the fields; a list given replaces the stored one. The specialty must be one ' +
          'of the services, and its treatment stays first among `treatmentIds`; every treatment ' +
          'must be one the clinic offers. The email stays (it names the doctor in ' +
          '`DELETE /api/doctor/{id}`, the spec’s `/doctor/{email}`). Bookings keep the doctor’s name as it was when booked. ' +
          'The answer adds `bookings`: the doctor’s upcoming bookings on days they are now ' +
          'away (a day off, a weekday not worked) or of treatments they no longer perform, ' +
          'which stay with them until moved or cancelled. ' +
          '404 for an unknown doctor.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        params: z.object({ id: z.string().min(1).max(100) }),
        body: doctorUpdateSchema,
        response: { 200: doctorChangeSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const body = request.body;
      const current = await findDoctor(app.db, id);
      if (!current) return reply.code(404).send(errorBody(404, doctorErrors.noSuchDoctor));
      const specialty = body.specialty ?? current.specialty;
      const specialtyChanged = body.specialty !== undefined && body.specialty !== current.specialty;
      const treatmentIds =
        body.treatmentIds !== undefined || specialtyChanged
          ? await treatmentsOf(app.db, specialty, body.treatmentIds, current.treatmentIds, {
              specialtyChanged,
            })
          : undefined;
      if (body.image !== undefined && body.image !== current.image_url) {
        if (!(await imageIsOurs(body.image))) {
          return reply.code(400).send(errorBody(400, doctorErrors.foreignImage));
        }
      }
      const changed = await updateDoctor(
        app.db,
        id,
        {
          name: body.name,
          specialty: body.specialty,
          image_url: body.image,
          treatmentIds,
          workDays: body.workDays,
          daysOff: body.daysOff && sortedDates(body.daysOff),
        },
        adminActor(callerOf(request)),
      );
      if (!changed) return reply.code(404).send(errorBody(404, doctorErrors.noSuchDoctor));
      const oldPhoto = changed.before.image_url;
      if (oldPhoto !== changed.after.image_url && !(await photoShown(app.db, oldPhoto))) {
        const imageName = app.images.nameOf(oldPhoto);
        if (imageName) {
          await app.images.remove(imageName).catch((err: unknown) => {
            request.log.error({ err, image: imageName }, 'could not delete a doctor’s photo');
          });
        }
      }
      const doctor = toApiDoctor(changed.after);
      const { today } = clinicMoment(app.config.clinic.timeZone, clock.now());
      const leftBehind =
        body.workDays === undefined && body.daysOff === undefined && treatmentIds === undefined
          ? []
          : (await upcomingBookingsWithDoctor(app.db, id, today)).filter(
              (booking) =>
                doctor.daysOff.includes(booking.date) ||
                !doctor.workDays.includes(weekdayOf(booking.date)) ||
                !doctor.treatmentIds.includes(booking.treatment_id),
            );
      return { ...doctor, bookings: leftBehind.map(heldSlot) };
    },
  );

  app.delete(
    '/doctor/:id',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'deleteDoctor',
        summary: 'Delete a doctor and their stored photo',
        description:
          'The doctor is named by their email, as the spec has it (`DELETE /doctor/{email}`), or ' +
          'by their id (the path has one parameter name for this route and `PATCH`). ' +
          '`deletedCount` is 0 when no doctor is listed under it. A doctor who still ' +
          'has upcoming appointments (booked, confirmed or arrived, from today on) stays: 409 ' +
          'listing them, to be cancelled or moved first.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        params: z.object({
          id: z.string().trim().min(1).max(254).describe("The doctor's email, or their id"),
        }),
        response: {
          200: z.object({ deletedCount: z.number() }),
          ...errorResponses(400, 401, 403),
          409: z.union([doctorBookedSchema, error]),
        },
      },
    },
    async (request, reply) => {
      const { today } = clinicMoment(app.config.clinic.timeZone, clock.now());
      const removal = await deleteDoctor(
        app.db,
        request.params.id,
        adminActor(callerOf(request)),
        (tx, doctorId) => upcomingBookingsWithDoctor(tx, doctorId, today),
      );
      if (!removal.removed && removal.reason === 'unknown') return { deletedCount: 0 };
      if (!removal.removed) {
        return reply.code(409).send({
          ...errorBody(409, doctorErrors.hasBookings(removal.bookings.length)),
          statusCode: 409 as const,
          reason: 'doctor-booked' as const,
          bookings: removal.bookings.map(heldSlot),
        });
      }
      const imageName = app.images.nameOf(removal.imageUrl);
      if (imageName && !removal.stillShown) {
        // The doctor is gone whatever happens to the file; a photo left behind is only logged.
        await app.images.remove(imageName).catch((err: unknown) => {
          request.log.error({ err, image: imageName }, 'could not delete a doctor’s photo');
        });
      }
      return { deletedCount: 1 };
    },
  );

  app.get(
    '/doctors/available',
    {
      schema: {
        operationId: 'listAvailableDoctors',
        summary: 'The doctors free for a slot of a treatment on a date',
        description:
          "The date in the spec's medium format ('Jan 5, 2031'), as `GET /api/available` takes " +
          'it. Each doctor performs the treatment, works that weekday, is not off that date and ' +
          'is free for the whole slot; none on a date or at a time that cannot be booked. 400 ' +
          'for a treatment the clinic does not offer or a slot it does not offer for it.',
        tags: ['bookings'],
        security: [],
        querystring: availableDoctorsQuerySchema,
        response: { 200: z.array(availableDoctorSchema), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { treatmentId, date, slot } = request.query;
      const moment = clinicMoment(app.config.clinic.timeZone, clock.now());
      reply.header('cache-control', 'no-store');
      return availableDoctorsFor(app.db, moment, treatmentId, date, slot);
    },
  );
};

import {
  bookingRulesSchema,
  calendarQuerySchema,
  clinicCalendarErrors,
  clinicCalendarSchema,
  clinicRulesSchema,
  closureRequestSchema,
  closureSchema,
  closureWithBookingsSchema,
  openingDaysChangeSchema,
  openingDaysSchema,
} from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, requireAdmin } from '../auth/guards.js';
import { clinicMoment, clock } from '../bookings/clock.js';
import { errorResponseSchema as error, errorBody } from '../http/errors.js';
import {
  bookingRulesOf,
  cachedClinicCalendar,
  clinicCalendarMessages,
  closedDatesBetween,
  readClinicCalendar,
  setDefaultRules,
} from './calendar.js';
import {
  addClosure,
  describeRules,
  liveBookingsBetween,
  liveBookingsOnWeekdays,
  removeClosure,
  setBookingRules,
  setOpeningDays,
} from './settings.js';

// A malformed id names no closure: 404 like an unknown one, rather than a 400.
const closureParams = z.object({ id: z.uuid() });

/**
 * The clinic's calendar and booking rules: `GET /api/clinic/calendar` (public, the closed dates
 * the booking calendar disables), and for administrators the weekly opening days
 * (`PUT /api/clinic/opening-days`), the closures (`GET` and `POST /api/closures`,
 * `DELETE /api/closures/{id}`) and the booking rules (`GET` and `PUT /api/clinic/rules`).
 */
export const clinicCalendarRoutes: FastifyPluginAsyncZod = async (app) => {
  // The environment's booking rules apply until the clinic stores its own.
  setDefaultRules(app.db, app.config.bookingRules);
  const moment = () => clinicMoment(app.config.clinic.timeZone, clock.now());

  app.get(
    '/clinic/calendar',
    {
      schema: {
        operationId: 'getClinicCalendar',
        summary: 'The dates the clinic is closed in a range, for the booking calendar',
        description:
          '`from` and `to` are ISO dates, both included, at most 366 days apart (400 otherwise). ' +
          'Each closed date is a weekly closed day (`weekly`) or falls in a closure (`closure`, ' +
          'with its label); a closed date offers no slots. `cancellationNoticeHours` is the ' +
          'cancellation policy’s notice. Shared caches may keep the answer for 30 seconds.',
        tags: ['clinic'],
        security: [],
        querystring: calendarQuerySchema,
        response: { 200: clinicCalendarSchema, 400: error },
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      const state = await cachedClinicCalendar(app.db);
      reply.header('cache-control', 'public, max-age=0, s-maxage=30');
      return {
        from,
        to,
        openingDays: state.openingDays,
        closed: closedDatesBetween(state, from, to),
        // The booking modal and the payment page state the policy with the calendar's answer.
        cancellationNoticeHours: (await bookingRulesOf(app.db)).cancellationNoticeHours,
      };
    },
  );

  app.put(
    '/clinic/opening-days',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'setOpeningDays',
        summary: 'Set the days of the week the clinic opens (administrators)',
        description:
          '`days` lists the open weekdays, 0 = Sunday … 6 = Saturday, each once, at least one. ' +
          'The other weekdays offer no slots from now on; bookings already made on them stay. ' +
          'The answer lists the live bookings of the coming 366 days (booked or confirmed, not ' +
          'started) on the weekdays this change closed, for the clinic to move or cancel.',
        tags: ['clinic'],
        security: [{ bearer: [] }],
        body: openingDaysSchema,
        response: { 200: openingDaysChangeSchema, 400: error, 401: error, 403: error },
      },
    },
    async (request) => {
      const { days, closed } = await setOpeningDays(app.db, callerOf(request), request.body.days);
      return { days, bookings: await liveBookingsOnWeekdays(app.db, moment(), closed) };
    },
  );

  app.get(
    '/closures',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'listClosures',
        summary:
          'The closures not over yet, each with the live bookings on its days (administrators)',
        description:
          'Closures whose last day is today or later, by first day. `bookings` are the booked or ' +
          'confirmed visits on their days that have not started: the clinic cancels them ' +
          '(`POST /api/booking/{id}/cancel`) or keeps them.',
        tags: ['clinic'],
        security: [{ bearer: [] }],
        response: { 200: z.array(closureWithBookingsSchema), 400: error, 401: error, 403: error },
      },
    },
    async (_request, reply) => {
      const now = moment();
      const { closures } = await readClinicCalendar(app.db, now.today);
      reply.header('cache-control', 'private, no-store');
      return Promise.all(
        closures.map(async (closure) => ({
          ...closure,
          bookings: await liveBookingsBetween(app.db, now, closure.from, closure.to),
        })),
      );
    },
  );

  app.post(
    '/closures',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'addClosure',
        summary: 'Close the clinic from one date to another, with a label (administrators)',
        description:
          '`from` and `to` are ISO dates, both included (`to` not before `from` nor before ' +
          'the clinic’s today, at most 366 days); `label` (1 to 80 characters) says why, e.g. ' +
          'the holiday. Those days offer no slots from now on. The answer lists the live ' +
          'bookings already on them (booked or confirmed, not started), which stay until the ' +
          'clinic cancels them.',
        tags: ['clinic'],
        security: [{ bearer: [] }],
        body: closureRequestSchema,
        response: { 201: closureWithBookingsSchema, 400: error, 401: error, 403: error },
      },
    },
    async (request, reply) => {
      const now = moment();
      // A closure over by today would close nothing, and no list would show it to remove.
      if (request.body.to < now.today) {
        return reply.code(400).send(errorBody(400, clinicCalendarErrors.closureOver));
      }
      const closure = await addClosure(app.db, callerOf(request), request.body);
      const bookings = await liveBookingsBetween(app.db, now, closure.from, closure.to);
      return reply.code(201).send({ ...closure, bookings });
    },
  );

  app.delete(
    '/closures/:id',
    {
      onRequest: requireAdmin,
      attachValidation: true,
      schema: {
        operationId: 'removeClosure',
        summary: 'Remove a closure: the clinic opens on its days again (administrators)',
        tags: ['clinic'],
        security: [{ bearer: [] }],
        params: closureParams,
        response: {
          200: z.object({ closure: closureSchema.pick({ id: true }) }),
          400: error,
          401: error,
          403: error,
          404: error,
        },
      },
    },
    async (request, reply) => {
      if (request.validationError) {
        return reply.code(404).send(errorBody(404, clinicCalendarMessages.noSuchClosure));
      }
      await removeClosure(app.db, callerOf(request), request.params.id);
      return { closure: { id: request.params.id } };
    },
  );

  app.get(
    '/clinic/rules',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'getBookingRules',
        summary: 'The booking rules in force and their defaults (administrators)',
        description:
          'Until the clinic stores its own (`stored: false`), the rules are the defaults the ' +
          'environment sets (BOOKING_HORIZON_DAYS, MIN_BOOKING_NOTICE_MINUTES, ' +
          'MAX_UNPAID_BOOKINGS, CANCELLATION_NOTICE_HOURS, REMINDER_LEAD_HOURS).',
        tags: ['clinic'],
        security: [{ bearer: [] }],
        response: { 200: clinicRulesSchema, 400: error, 401: error, 403: error },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return describeRules(app.db);
    },
  );

  app.put(
    '/clinic/rules',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'setBookingRules',
        summary: 'Store the clinic’s booking rules (administrators)',
        description:
          'Every rule, each a whole number: the booking horizon in days (1 to 36500), the ' +
          'minimum notice before a slot in minutes (0 to 43200), the cap on a patient’s ' +
          'upcoming unpaid bookings (1 to 10000), the cancellation notice in hours (0 to 720) ' +
          'and the reminder’s lead time in hours (1 to 720). They apply from the next request.',
        tags: ['clinic'],
        security: [{ bearer: [] }],
        body: bookingRulesSchema,
        response: { 200: clinicRulesSchema, 400: error, 401: error, 403: error },
      },
    },
    async (request) => {
      await setBookingRules(app.db, callerOf(request), request.body, app.config.clinic.timeZone);
      return describeRules(app.db);
    },
  );
};

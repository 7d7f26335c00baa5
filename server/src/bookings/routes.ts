import {
  type AvailableTreatment,
  availableMonthQuerySchema,
  availableMonthSchema,
  availableTreatmentSchema,
  type Booking,
  bookingCreatedSchema,
  bookingRefusedSchema,
  bookingRequestSchema,
  bookingSchema,
  clinicCancelRequestSchema,
  confirmPaymentSchema,
  formatMediumDate,
  type IsoDate,
  mediumDateField,
  messages,
  paths,
  rescheduleRequestSchema,
  visitStatusRequestSchema,
} from '@doctors-portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { callerOf, isOwnEmail, requireAdmin, requireUser } from '../auth/guards.js';
import { bookingRulesOf } from '../clinic/calendar.js';
import type { Database } from '../db/schema.js';
import { doctorExists } from '../doctors/repository.js';
import { errorResponseSchema as error, errorBody, errorResponses } from '../http/errors.js';
import { keptBetweenWrites } from '../http/kept-between-writes.js';
import { bookingConfirmationEvent } from '../mail/templates.js';
import { answerPaymentFailure } from '../payments/errors.js';
import { refundsOf } from '../payments/repository.js';
import { confirmPayment } from '../payments/service.js';
import { fillProfileFromBooking } from '../users/repository.js';
import { availableOn } from './availability.js';
import { availabilityCache, forgetAvailabilityAnswers } from './availability-cache.js';
import { availabilityOfMonth } from './availability-month.js';
import {
  bookSlot,
  cancelBooking,
  type Rescheduled,
  readableBooking,
  rescheduleBooking,
} from './booking-rules.js';
import { cancelDepsOf } from './cancel-with-refund.js';
import { cancelByClinic, changeVisitStatus } from './clinic-actions.js';
import { type ClinicMoment, clinicMoment, clock } from './clock.js';
import { bookingErrors } from './errors.js';
import {
  bookingSummary,
  inAppointmentOrder,
  patientBookingsJson,
  toApiBooking,
} from './presenters.js';
import { listPatientBookings } from './repository.js';

// A malformed id names no booking: 404 like an unknown one, rather than a 400.
const bookingParams = z.object({ id: z.uuid() });
// On routes with a body, any id passes validation, so that a bad body is still a 400; the
// `uuidOr404` pre-handler, which runs after validation, answers a malformed id 404.
const anyBookingId = z.object({ id: z.string() });

async function uuidOr404(request: FastifyRequest, reply: FastifyReply) {
  if (!bookingParams.safeParse(request.params).success) {
    return reply.code(404).send(errorBody(404, bookingErrors.noSuchBooking));
  }
}

/**
 * What follows a booking's move, in its transaction: the patient's updated confirmation (its
 * calendar event one SEQUENCE up) is queued, and the move is told to the app's listeners.
 */
export const announceMove =
  (app: FastifyInstance) =>
  async (tx: Kysely<Database>, { before, booking }: Rescheduled): Promise<void> => {
    await app.mailQueue.add(tx, {
      kind: 'booking-confirmation',
      to: booking.patient_email,
      booking: {
        ...bookingSummary(booking),
        sequence: booking.sequence,
        movedFrom: { isoDate: before.date, slot: before.slot },
      },
    });
    await app.bookingEvents.emit(tx, { kind: 'moved', before, booking });
  };

/**
 * `/api/available` and every `/api/booking…` route: availability by date, booking, a patient's
 * own bookings, one booking, its payment's confirmation and its cancellation (spec section 7:
 * GET /available, POST and GET /booking, GET and PATCH /booking/{id}; DELETE /booking/{id} is
 * ours). Dates are ISO dates in here: the schemas decode and encode the spec's medium format.
 */
export const bookingRoutes: FastifyPluginAsyncZod = async (app) => {
  const moment = () => clinicMoment(app.config.clinic.timeZone, clock.now());
  const answers = availabilityCache();
  /** Each patient's own bookings as last answered, while nothing was written (decision 039). */
  const myAnswers = keptBetweenWrites<Buffer>(app.writes);
  /** A booking as its patient sees it at `now`, `cancellable` by the clinic's notice in force. */
  const present = async (
    row: Parameters<typeof toApiBooking>[0],
    now: ClinicMoment,
    refundId: string | null = null,
  ) => toApiBooking(row, now, (await bookingRulesOf(app.db)).cancellationNoticeHours, refundId);
  /** A booking as stored, with its refund: only a cancelled one has been refunded. */
  const presentWithRefund = async (row: Parameters<typeof toApiBooking>[0], now: ClinicMoment) => {
    if (row.status !== 'cancelled') return present(row, now);
    const refunds = await refundsOf(app.db, [row.id]);
    return present(row, now, refunds.get(row.id) ?? null);
  };

  app.get(
    '/available',
    {
      schema: {
        operationId: 'listAvailableSlots',
        summary: 'The treatments with the slots still free on a date',
        description:
          "Dates are in the clinic's time zone: past dates have no slots, and today's slots " +
          'that have started are not offered. A treatment doctors perform offers a slot while ' +
          'one of them works that day and is free for all of it; `doctor` narrows the answer ' +
          'to one doctor (400 for an unknown one).',
        tags: ['bookings'],
        security: [],
        querystring: z.object({
          date: mediumDateField,
          doctor: z.string().trim().min(1).max(100).optional(),
        }),
        response: { 200: z.array(availableTreatmentSchema), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { date, doctor } = request.query;
      const now = moment();
      // Every booking changes the answer: neither browsers nor proxies may keep it.
      reply.header('cache-control', 'no-store').type('application/json; charset=utf-8');
      let json = answers.get(date, now, undefined, doctor);
      if (json === undefined) {
        const version = answers.version();
        if (doctor !== undefined && !(await doctorExists(app.db, doctor))) {
          return reply.code(400).send(errorBody(400, bookingErrors.unknownDoctor) as never);
        }
        // The answer is typed by the response schema; as text it is sent as it is, computed
        // and serialised once for every request in the cache's window.
        json = JSON.stringify(await availableOn(app.db, date, now, { doctorId: doctor }));
        answers.set(date, now, json, version, undefined, doctor);
      }
      // Already JSON text of the 200 schema's shape: Fastify sends a string as it is.
      return reply.send(json as unknown as AvailableTreatment[]);
    },
  );

  app.get(
    '/available/month',
    {
      schema: {
        operationId: 'getMonthAvailability',
        summary: 'Whether each day of a month has anything free, for the booking calendar',
        description:
          '`month` is `YYYY-MM` (400 otherwise); any month from 1970 to 9999 is answered. Each ' +
          'day is `open` (some slot free), `full` (open, every slot ahead taken), `closed` (a ' +
          'weekly closed day or a closure, with its label), `past` (before today in the ' +
          "clinic's time zone, or every slot started or within the minimum notice) or " +
          '`beyond-horizon` (further ahead than bookings are taken). A day is `open` exactly ' +
          'when `GET /api/available` lists a slot on it.',
        tags: ['bookings'],
        security: [],
        querystring: availableMonthQuerySchema,
        response: { 200: availableMonthSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      // Every booking changes the answer, as it does `/available`'s.
      reply.header('cache-control', 'no-store');
      return availabilityOfMonth(app.db, request.query.month, moment());
    },
  );

  app.post(
    '/booking',
    {
      onRequest: requireUser,
      schema: {
        operationId: 'createBooking',
        summary: 'Book a slot for the signed-in patient',
        description:
          "The patient's name and email come from the session and the treatment's name and " +
          'price from the clinic; those fields of the request are ignored. The address must be ' +
          'verified (403), the date within the booking horizon (400), and the patient under the ' +
          'cap of upcoming unpaid bookings (409). 409 when the patient already holds this ' +
          "treatment on this date (reason 'patient', with that booking's date and slot), holds " +
          "another booking at an overlapping time (reason 'overlap', naming it), or someone else " +
          "holds the slot (reason 'slot'). For a treatment doctors perform, the booking is with " +
          '`doctorId` when given (400 for an unknown doctor; 409 saying why when that doctor ' +
          'does not perform the treatment, is not at work that day or is not free then), ' +
          "otherwise with a free doctor the server picks; none free is reason 'slot'.",
        tags: ['bookings'],
        security: [{ bearer: [] }],
        body: bookingRequestSchema,
        response: {
          201: bookingCreatedSchema,
          ...errorResponses(400, 401, 403),
          409: z.union([bookingRefusedSchema, error]),
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const now = moment();
      const outcome = await bookSlot(
        app.db,
        app.transact,
        now,
        app.config.bookingRules,
        caller,
        request.body,
        async (tx, booking) => {
          // The phone and age the patient gave fill their profile's gaps, to pre-fill the next.
          await fillProfileFromBooking(tx, caller.id, booking);
          await app.mailQueue.add(tx, {
            kind: 'booking-confirmation',
            to: caller.email,
            booking: bookingSummary(booking),
          });
          await app.bookingEvents.emit(tx, { kind: 'booked', booking });
        },
      );
      // Booked, or refused because the slot is taken: either way this instance's answer for the
      // day is out of date.
      forgetAvailabilityAnswers(request.body.date);
      if (outcome.booked) {
        app.mailQueue.wake();
        return reply
          .code(201)
          .send({ success: true, booking: await present(outcome.booking, now) });
      }
      if (outcome.rule === 'slot') {
        return reply
          .code(409)
          .send({ success: false, reason: 'slot', message: outcome.message ?? messages.slotTaken });
      }
      const { date, slot, treatment_name: treatment } = outcome.existing;
      const mediumDate = formatMediumDate(date);
      return reply.code(409).send({
        success: false,
        reason: outcome.rule,
        message:
          outcome.rule === 'patient'
            ? messages.bookingConflict(mediumDate, slot)
            : bookingErrors.overlap(treatment, mediumDate, slot),
        booking: { date, slot, treatment },
      });
    },
  );

  app.get(
    '/booking',
    {
      onRequest: requireUser,
      schema: {
        operationId: 'listMyBookings',
        summary: "The caller's own bookings, by date and start time",
        tags: ['bookings'],
        security: [{ bearer: [] }],
        querystring: z.object({
          patientMail: z
            .string({ error: 'patientMail is Required' })
            .min(1, 'patientMail is Required')
            .max(254),
        }),
        response: { 200: z.array(bookingSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      if (!isOwnEmail(caller, request.query.patientMail)) {
        return reply.code(403).send(errorBody(403, bookingErrors.notYourMail));
      }
      reply.header('cache-control', 'private, no-store').type('application/json; charset=utf-8');
      // Which bookings may be cancelled depends on the minute and the clinic's notice.
      const now = moment();
      const { cancellationNoticeHours: notice } = await bookingRulesOf(app.db);
      const key = `${caller.id}|${now.today}|${now.minutes}|${notice}`;
      let body = myAnswers.get(key);
      if (body === undefined) {
        const version = myAnswers.version();
        // The spec's parameter names the caller; the bookings are those of the caller's account.
        const rows = await listPatientBookings(app.db, caller.id);
        const refunds = await refundsOf(
          app.db,
          rows.filter((row) => row.status === 'cancelled').map((row) => row.id),
        );
        // Already the JSON the 200 schema's encoder would write (patientBookingsJson).
        body = Buffer.from(patientBookingsJson(inAppointmentOrder(rows), now, refunds, notice));
        myAnswers.set(key, body, version);
      }
      return reply.send(body as unknown as Booking[]);
    },
  );

  // The payment page's booking.
  app.get(
    '/booking/:id',
    {
      onRequest: requireUser,
      attachValidation: true,
      schema: {
        operationId: 'getBooking',
        summary: 'One booking, for its patient or an administrator',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        params: bookingParams,
        response: { 200: bookingSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      if (request.validationError) {
        return reply.code(404).send(errorBody(404, bookingErrors.noSuchBooking));
      }
      const booking = await readableBooking(app.db, callerOf(request), request.params.id);
      reply.header('cache-control', 'private, no-store');
      return presentWithRefund(booking, moment());
    },
  );

  // 'Add to calendar' after booking: the event the confirmation mail carries, as it is now.
  app.get(
    '/booking/:id/calendar.ics',
    {
      onRequest: requireUser,
      attachValidation: true,
      schema: {
        operationId: 'getBookingCalendarEvent',
        summary: 'One booking as an iCalendar event, for its patient or an administrator',
        description:
          "The same event (UID and SEQUENCE) as the confirmation mail's .ics, in the clinic's " +
          'time zone: adding it again after a move updates the calendar entry. A cancelled ' +
          'booking answers 409.',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        params: bookingParams,
        response: {
          200: {
            description: 'The appointment as an iCalendar (RFC 5545) file to download.',
            content: { 'text/calendar': { schema: z.string() } },
          },
          ...errorResponses(401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      if (request.validationError) {
        return reply.code(404).send(errorBody(404, bookingErrors.noSuchBooking));
      }
      const booking = await readableBooking(app.db, callerOf(request), request.params.id);
      if (booking.status === 'cancelled') {
        return reply.code(409).send(errorBody(409, bookingErrors.cancelledHasNoEvent));
      }
      const event = bookingConfirmationEvent({
        clinic: app.config.clinic,
        booking: bookingSummary(booking),
        url: `${app.config.publicUrl}${paths.dashboard}`,
      });
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${event.filename}"`)
        .type('text/calendar; charset=utf-8')
        .send(event.content);
    },
  );

  app.patch(
    '/booking/:id',
    {
      onRequest: requireUser,
      preHandler: uuidOr404,
      // The card gateway failing answers 502, as on the other payment routes.
      errorHandler: answerPaymentFailure,
      schema: {
        operationId: 'confirmBookingPayment',
        summary: 'Mark your booking paid, once the payment provider confirms the payment',
        description:
          'The provider is asked whether `transactionId` succeeded for this booking and its ' +
          'price; otherwise the booking stays unpaid (400). Repeating a successful call answers ' +
          '200 with modifiedCount 0; another payment for a paid booking answers 409.',
        tags: ['payments'],
        security: [{ bearer: [] }],
        params: anyBookingId,
        body: confirmPaymentSchema,
        response: {
          200: z.object({
            modifiedCount: z.union([z.literal(0), z.literal(1)]),
            booking: bookingSchema,
          }),
          ...errorResponses(400, 401, 403, 404, 409, 502),
        },
      },
    },
    async (request) => {
      const { modifiedCount, booking } = await confirmPayment(
        app.payments,
        request.log,
        callerOf(request),
        request.params.id,
        request.body,
      );
      return { modifiedCount, booking: await presentWithRefund(booking, moment()) };
    },
  );

  app.delete(
    '/booking/:id',
    {
      onRequest: requireUser,
      attachValidation: true,
      // The card gateway failing answers 502, as on the other payment routes.
      errorHandler: answerPaymentFailure,
      schema: {
        operationId: 'cancelBooking',
        summary:
          'Cancel one of your own bookings until the clinic’s cancellation notice before it, freeing its slot',
        description:
          'The cancellation policy: a booked or confirmed booking, paid or not, is cancelled ' +
          'until the clinic’s cancellation notice (CANCELLATION_NOTICE_HOURS, 24 by default) ' +
          'before its start; later, or once its patient moved it inside that notice, 409 with ' +
          'the clinic’s phone. The booking stays on record as ' +
          'cancelled and the patient is mailed. A paid booking is refunded in full through the ' +
          'payment provider first, as when the clinic cancels: when the provider refuses, it ' +
          'stays booked and paid (409), and when it cannot be reached, 502. A payment the ' +
          'patient had started is cancelled with the provider first; when it went through ' +
          'meanwhile it is refunded, and while the provider is still processing it, 409. A ' +
          'booking cancelled already answers 409, an unknown one 404.',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        params: bookingParams,
        response: {
          200: z.object({ deletedCount: z.number() }),
          ...errorResponses(400, 401, 403, 404, 409, 502),
        },
      },
    },
    async (request, reply) => {
      if (request.validationError) {
        return reply.code(404).send(errorBody(404, bookingErrors.noSuchBooking));
      }
      const { booking } = await cancelBooking(
        cancelDepsOf(app, request.log),
        moment(),
        callerOf(request),
        request.params.id,
      );
      forgetAvailabilityAnswers(booking.date);
      return { deletedCount: 1 };
    },
  );

  app.post(
    '/booking/:id/reschedule',
    {
      onRequest: requireUser,
      preHandler: uuidOr404,
      schema: {
        operationId: 'rescheduleBooking',
        summary: 'Move one of your own upcoming bookings to another date or slot',
        description:
          'The same treatment, the date in the spec’s medium format as in a booking request. ' +
          'The booking moves in place: the same id, its payment and status kept. The new date ' +
          'and slot meet the booking rules (400 saying which not: horizon, closed day, minimum ' +
          'notice, a slot the treatment offers, not started), and the same date and slot is a ' +
          '400 (nothing to change). For a treatment doctors perform, the booking stays with its ' +
          'doctor when free, otherwise `doctorId` or a free doctor (as in a booking). Its old ' +
          'time is given back and the new one held in one transaction: 409 when the new slot is ' +
          'taken (the booking keeps its old one), or when it overlaps another of yours; 409 for ' +
          'a booking that has been cancelled, has started, passed or is not booked or ' +
          'confirmed; 404 for an unknown booking, 403 for someone else’s. Moved inside the ' +
          'clinic’s cancellation notice, it is no longer cancelled online (`cancellable` false). The ' +
          'patient is mailed an updated confirmation whose calendar event has the same UID and ' +
          'a higher SEQUENCE.',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        params: anyBookingId,
        body: rescheduleRequestSchema,
        response: {
          200: bookingCreatedSchema,
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const now = moment();
      let movedFrom: IsoDate | undefined;
      try {
        const { before, booking } = await rescheduleBooking(
          app.db,
          app.transact,
          now,
          app.config.bookingRules,
          caller,
          request.params.id,
          request.body,
          announceMove(app),
        );
        movedFrom = before.date;
        app.mailQueue.wake();
        return { success: true as const, booking: await present(booking, now) };
      } finally {
        // Moved, or refused because the slot is taken: the days' answers may be stale.
        forgetAvailabilityAnswers(request.body.date, ...(movedFrom ? [movedFrom] : []));
      }
    },
  );

  app.patch(
    '/booking/:id/status',
    {
      onRequest: requireAdmin,
      preHandler: uuidOr404,
      schema: {
        operationId: 'setVisitStatus',
        summary: 'Mark how a visit went: arrived, completed or no-show (administrators)',
        description:
          'A booked or confirmed visit becomes `arrived` or `no_show`, an arrived one ' +
          '`completed`, and a no-show who turns up late `arrived`; only on or after the day of ' +
          'the visit. Anything else answers 409 saying why: nothing goes to or from `cancelled` ' +
          'this way (`POST /api/booking/{id}/cancel` cancels, with a reason). Setting the status ' +
          'a booking already has changes nothing (`changed: false`).',
        tags: ['schedule'],
        security: [{ bearer: [] }],
        params: anyBookingId,
        body: visitStatusRequestSchema,
        response: {
          200: z.object({ changed: z.boolean(), booking: bookingSchema }),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      const now = moment();
      const { booking, changed } = await changeVisitStatus(
        app.db,
        now,
        callerOf(request),
        request.params.id,
        request.body.status,
      );
      return { changed, booking: await present(booking, now) };
    },
  );

  app.post(
    '/booking/:id/cancel',
    {
      onRequest: requireAdmin,
      preHandler: uuidOr404,
      // The card gateway failing answers 502, as on the other payment routes.
      errorHandler: answerPaymentFailure,
      schema: {
        operationId: 'cancelBookingByClinic',
        summary: 'The clinic cancels a booking, with a reason for its patient (administrators)',
        description:
          'For a booked or confirmed visit that has not started: its slot and its patient’s time ' +
          'are freed at once, the booking stays on record as cancelled by the administrator with ' +
          'the reason, and the patient is mailed the reason with a calendar cancellation of the ' +
          'appointment. A paid booking is refunded in full through the payment provider first; ' +
          'when the provider refuses, the booking stays booked and paid (409 with the ' +
          'provider’s reason), and when it cannot be reached, 502. An unpaid booking’s open ' +
          'payment is cancelled with the provider first.',
        tags: ['schedule'],
        security: [{ bearer: [] }],
        params: anyBookingId,
        body: clinicCancelRequestSchema,
        response: {
          200: z.object({ booking: bookingSchema }),
          ...errorResponses(400, 401, 403, 404, 409, 502),
        },
      },
    },
    async (request) => {
      const now = moment();
      const { booking, refund } = await cancelByClinic(
        cancelDepsOf(app, request.log),
        now,
        callerOf(request),
        request.params.id,
        request.body.reason,
      );
      forgetAvailabilityAnswers(booking.date);
      return { booking: await present(booking, now, refund?.id ?? null) };
    },
  );
};

import {
  rescheduleRequestSchema,
  type VisitLinkAction,
  visitLinkMessages,
  visitLinkOutcomeSchema,
  visitLinkSchema,
} from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forgetAvailabilityAnswers } from '../bookings/availability-cache.js';
import {
  cancelBooking,
  cancellationTerms,
  isCancellable,
  rescheduleBooking,
} from '../bookings/booking-rules.js';
import { cancelDepsOf } from '../bookings/cancel-with-refund.js';
import { type ClinicMoment, clinicMoment, clock } from '../bookings/clock.js';
import type { BookingEvents } from '../bookings/events.js';
import { bookingDoctor } from '../bookings/presenters.js';
import { findBooking } from '../bookings/repository.js';
import { announceMove } from '../bookings/routes.js';
import { bookingRulesOf } from '../clinic/calendar.js';
import type { Booking } from '../db/schema.js';
import { errorResponses, HttpError } from '../http/errors.js';
import { answerPaymentFailure } from '../payments/errors.js';
import { refundsOf } from '../payments/repository.js';
import { visitLinkSignerOf } from './mail-links.js';
import { confirmVisit, linkPatient, openLink, useLink, usingLinkOnce } from './visit-links.js';

// Any text: what is not a token this server signed is a 404, not a 400.
const tokenParams = z.object({ token: z.string() });

/** The visit as its link's page shows it (the response schema writes the medium date). */
const visitOf = (booking: Booking, moment: ClinicMoment, cancellationNoticeHours: number) => ({
  id: booking.id,
  treatmentId: booking.treatment_id,
  treatment: booking.treatment_name,
  date: booking.date,
  slot: booking.slot,
  doctor: bookingDoctor(booking),
  status: booking.status,
  paid: booking.paid_at !== null,
  cancellable: isCancellable(booking, moment, cancellationNoticeHours),
});

/** What each link's POST says it does, for the OpenAPI document. */
const USES: Record<VisitLinkAction, string> = {
  confirm: 'Confirm the visit: booked becomes confirmed, as the clinic’s schedule shows.',
  cancel:
    'Cancel the visit under the clinic’s cancellation policy, as the patient would from My ' +
    'Appointments (a paid visit cancelled in time is refunded; after the notice, 409 with the ' +
    'clinic’s phone).',
  reschedule:
    'Move the visit to another date or slot of the same treatment, under the same rules as ' +
    '`POST /api/booking/{id}/reschedule`; the patient is mailed the updated confirmation.',
};

const LINK_RULES =
  'No sign-in: the signed link stands for the booking’s patient. 404 for a link not made here ' +
  '(or for another action), 410 once the visit has started, 409 when the link was used already ' +
  '(each link works once), the visit was moved since the mail, cancelled, or is past changing.';

/**
 * `/api/visit/{token}`: the one-tap links of the confirmation and reminder mails (issue 16,
 * item 2). Each POST uses its link up in the transaction of what it does (visits/visit-links.ts).
 */
export const visitRoutes: FastifyPluginAsyncZod = async (app) => {
  const signer = visitLinkSignerOf(app.config);
  const moment = () => clinicMoment(app.config.clinic.timeZone, clock.now());
  const open = (token: string, action?: VisitLinkAction) =>
    openLink(app.db, signer, token, clock.now().getTime(), action);

  /** The visit as it is after a link's use, and whether its payment was given back. */
  async function outcome(id: string) {
    const booking = await findBooking(app.db, id);
    if (!booking) throw new Error(`Booking ${id} vanished after its link was used`);
    const refunded = (await refundsOf(app.db, [id])).has(id);
    const { cancellationNoticeHours } = await bookingRulesOf(app.db);
    return { booking: visitOf(booking, moment(), cancellationNoticeHours), refunded };
  }

  app.get(
    '/visit/:token',
    {
      schema: {
        operationId: 'openVisitLink',
        summary: 'What a mail’s one-tap link does, to which visit, and the cancellation policy',
        description: `Does not use the link up. ${LINK_RULES}`,
        tags: ['bookings'],
        security: [],
        params: tokenParams,
        response: { 200: visitLinkSchema, ...errorResponses(404, 409, 410) },
      },
    },
    async (request, reply) => {
      const { claims, booking } = await open(request.params.token);
      const { cancellationNoticeHours } = await bookingRulesOf(app.db);
      const clinicPhone = app.config.clinic.phone;
      const now = moment();
      const policy = cancellationTerms(booking, now, { cancellationNoticeHours, clinicPhone });
      reply.header('cache-control', 'private, no-store');
      return {
        action: claims.action,
        booking: visitOf(booking, now, cancellationNoticeHours),
        policy,
      };
    },
  );

  app.post(
    '/visit/:token/confirm',
    {
      schema: {
        operationId: 'confirmVisitByLink',
        summary: 'Confirm a visit through its mail link',
        description: `${USES.confirm} ${LINK_RULES}`,
        tags: ['bookings'],
        security: [],
        params: tokenParams,
        response: { 200: visitLinkOutcomeSchema, ...errorResponses(404, 409, 410) },
      },
    },
    async (request) => {
      const link = await open(request.params.token, 'confirm');
      await usingLinkOnce(app.db, link.claims, () => confirmVisit(app.transact, link));
      return outcome(link.booking.id);
    },
  );

  app.post(
    '/visit/:token/cancel',
    {
      // The card gateway failing answers 502, as on the other payment routes.
      errorHandler: answerPaymentFailure,
      schema: {
        operationId: 'cancelVisitByLink',
        summary: 'Cancel a visit through its mail link',
        description: `${USES.cancel} ${LINK_RULES}`,
        tags: ['bookings'],
        security: [],
        params: tokenParams,
        response: { 200: visitLinkOutcomeSchema, ...errorResponses(404, 409, 410, 502) },
      },
    },
    async (request) => {
      const { claims, booking } = await open(request.params.token, 'cancel');
      // The cancellation's own transaction uses the link, as it tells of the change.
      const events: BookingEvents = {
        ...app.bookingEvents,
        async emit(tx, change) {
          await useLink(tx, claims);
          await app.bookingEvents.emit(tx, change);
        },
      };
      await usingLinkOnce(app.db, claims, () =>
        cancelBooking(
          { ...cancelDepsOf(app, request.log), events },
          moment(),
          linkPatient(booking),
          booking.id,
        ),
      );
      app.mailQueue.wake();
      forgetAvailabilityAnswers(booking.date);
      return outcome(booking.id);
    },
  );

  app.post(
    '/visit/:token/reschedule',
    {
      schema: {
        operationId: 'rescheduleVisitByLink',
        summary: 'Move a visit to another date or slot through its mail link',
        description: `${USES.reschedule} ${LINK_RULES}`,
        tags: ['bookings'],
        security: [],
        params: tokenParams,
        body: rescheduleRequestSchema,
        response: { 200: visitLinkOutcomeSchema, ...errorResponses(400, 404, 409, 410) },
      },
    },
    async (request) => {
      const { claims, booking } = await open(request.params.token, 'reschedule');
      const announce = announceMove(app);
      try {
        await usingLinkOnce(app.db, claims, () =>
          rescheduleBooking(
            app.db,
            app.transact,
            moment(),
            app.config.bookingRules,
            linkPatient(booking),
            booking.id,
            request.body,
            async (tx, moved) => {
              // The visit as the move locked it: moved in the app since the link was opened,
              // the link is stale and this move is undone.
              if (moved.before.sequence !== claims.sequence) {
                throw new HttpError(409, visitLinkMessages.moved);
              }
              await useLink(tx, claims);
              await announce(tx, moved);
            },
          ),
        );
      } finally {
        // Moved, or refused because the slot is taken: both days' answers may be stale.
        forgetAvailabilityAnswers(booking.date, request.body.date);
      }
      app.mailQueue.wake();
      return outcome(booking.id);
    },
  );
};

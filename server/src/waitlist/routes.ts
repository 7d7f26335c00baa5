import { waitlistRequestSchema, waitlistSchema } from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, requireUser } from '../auth/guards.js';
import { clinicMoment, clock } from '../bookings/clock.js';
import { errorResponses } from '../http/errors.js';
import { deleteEntry, listEntries, type WaitlistRow } from './repository.js';
import { followBookingsForWaitlist, joinWaitlist, ownEntry } from './rules.js';

// Any text: an id that names no entry is a 404, not a 400.
const entryParams = z.object({ id: z.string() });

const toApiEntry = (entry: WaitlistRow) => ({
  id: entry.id,
  treatmentId: entry.treatment_id,
  treatment: entry.treatment,
  date: entry.date,
  joinedAt: entry.created_at,
});

/**
 * `/api/waitlist` (issue 16, item 5): a patient waits for a slot of a treatment on a date that
 * has none free, sees their entries and leaves. The waitlist hears of freed slots here too: the
 * listener is added with the routes, once per app.
 */
export const waitlistRoutes: FastifyPluginAsyncZod = async (app) => {
  const moment = () => clinicMoment(app.config.clinic.timeZone, clock.now());
  followBookingsForWaitlist(app);

  app.post(
    '/waitlist',
    {
      onRequest: requireUser,
      schema: {
        operationId: 'joinWaitlist',
        summary: 'Wait for a slot of a treatment on a date that has none free',
        description:
          'The date is in the spec’s medium format, under the booking rules for dates: from ' +
          'today, within the booking horizon, the clinic open, a treatment it offers (400). ' +
          'The address must be verified (403). 409 while the treatment still has a free slot ' +
          'that day, when none of its dentists works that day, when the patient holds it that ' +
          'day already, is on its list already, or on ten upcoming lists. When one of its ' +
          'slots is freed (cancelled or moved) and can be booked, the first three waiting ' +
          'patients not yet told of it are mailed a link to book it, in the order they ' +
          'joined; a patient who books the treatment that day leaves its list.',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        body: waitlistRequestSchema,
        response: {
          201: z.object({ id: z.string(), treatment: z.string() }),
          ...errorResponses(400, 401, 403, 409),
        },
      },
    },
    async (request, reply) => {
      const joined = await joinWaitlist(app, moment(), callerOf(request), request.body);
      return reply.code(201).send(joined);
    },
  );

  app.get(
    '/waitlist',
    {
      onRequest: requireUser,
      schema: {
        operationId: 'listMyWaitlist',
        summary: 'Your waitlist entries from today on',
        description: 'The soonest date first, then in the order joined; dates in medium format.',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        response: { 200: waitlistSchema, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const entries = await listEntries(app.db, callerOf(request).id, moment().today);
      reply.header('cache-control', 'private, no-store');
      return { entries: entries.map(toApiEntry) };
    },
  );

  app.delete(
    '/waitlist/:id',
    {
      onRequest: requireUser,
      schema: {
        operationId: 'leaveWaitlist',
        summary: 'Leave one of your waitlist entries',
        description: '404 for an entry not there, 403 for another patient’s.',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        params: entryParams,
        response: { 204: z.null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const entry = await ownEntry(app, callerOf(request), request.params.id);
      await deleteEntry(app.db, entry.id);
      return reply.code(204).send(null);
    },
  );
};

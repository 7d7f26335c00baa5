import {
  accountRemovalSchema,
  accountRemovedSchema,
  DELETE_CONFIRMATION,
  historyEntrySchema,
  WRONG_CURRENT_PASSWORD,
} from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, requireUser } from '../auth/guards.js';
import {
  lockoutMessages,
  settlePasswordAttempt,
  startPasswordAttempt,
} from '../auth/login-failures.js';
import { clinicMoment, clock } from '../bookings/clock.js';
import { errorBody, errorResponses } from '../http/errors.js';
import { releaseBookingPayment } from '../payments/service.js';
import {
  accountExport,
  accountExportSchema,
  passwordHashOf,
  patientHistory,
  removeOwnAccount,
} from './account.js';

export const accountErrors = {
  wrongPassword: WRONG_CURRENT_PASSWORD,
  confirmationNeeded: `Type ${DELETE_CONFIRMATION} to confirm that your account should be removed.`,
  admin: 'An administrator’s account is removed by another admin, from Users.',
};

/**
 * The signed-in patient's own account: their history of visits, all their data to download, and
 * the removal of their account (issue 16, item 6).
 */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const moment = () => clinicMoment(app.config.clinic.timeZone, clock.now());
  const today = () => moment().today;

  app.get(
    '/booking/history',
    {
      onRequest: requireUser,
      schema: {
        operationId: 'listMyHistory',
        summary: "The caller's past and cancelled visits, the latest first",
        description:
          'Every booking of the caller dated before the clinic’s today, and the cancelled ones of ' +
          'any date, with what became of each (completed, no-show, cancelled by the patient or ' +
          'the clinic, or past) and whether it was paid and refunded.',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        response: { 200: z.array(historyEntrySchema), ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return patientHistory(app.db, callerOf(request).id, today());
    },
  );

  app.get(
    '/account/export',
    {
      onRequest: requireUser,
      schema: {
        operationId: 'exportMyData',
        summary: 'Everything the portal holds about the caller, as a JSON file',
        description:
          'The profile, every booking (cancelled ones too), payments and refunds (amounts only, ' +
          'no card data), the Contact Us messages sent from the account’s address and the audit ' +
          'entries of what the caller did. No password hash, token or session.',
        tags: ['accounts'],
        security: [{ bearer: [] }],
        response: { 200: accountExportSchema, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const data = await accountExport(app.db, callerOf(request).id);
      reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', 'attachment; filename="doctors-portal-my-data.json"');
      return data;
    },
  );

  app.delete(
    '/account',
    {
      onRequest: requireUser,
      schema: {
        operationId: 'removeMyAccount',
        summary: 'Remove the caller’s own account',
        description:
          'Needs the current `password`, or `confirmation: "DELETE"` for an account without ' +
          'one. Upcoming unpaid bookings are cancelled and their slots freed; past and paid ones ' +
          "stay on the clinic's records with the name and phone replaced. The account's " +
          'sessions end at once. 403 for a wrong password, 409 for an administrator, 429 after ' +
          'too many wrong passwords for the account (as at sign-in).',
        tags: ['accounts'],
        security: [{ bearer: [] }],
        body: accountRemovalSchema,
        response: {
          200: accountRemovedSchema,
          ...errorResponses(400, 401, 403, 409, 429),
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      if (caller.role === 'admin') return reply.code(409).send(errorBody(409, accountErrors.admin));
      const hash = await passwordHashOf(app.db, caller.id);
      const { password, confirmation } = request.body;
      if (hash) {
        // The password is checked under the sign-in's lockout: else a stolen session could
        // guess it here, without limit, and learn a password the patient may use elsewhere.
        const retryAfter = await startPasswordAttempt(app.rateLimits, caller.email);
        if (retryAfter !== null) {
          return reply
            .code(429)
            .header('retry-after', String(retryAfter))
            .send(errorBody(429, lockoutMessages.password(retryAfter)));
        }
        let right = false;
        try {
          const context = await app.auth.$context;
          right =
            typeof password === 'string' &&
            password !== '' &&
            (await context.password.verify({ hash, password }));
        } finally {
          await settlePasswordAttempt(app.rateLimits, caller.email, right ? 'other' : 'wrong');
        }
        if (!right) return reply.code(403).send(errorBody(403, accountErrors.wrongPassword));
      } else if (confirmation !== DELETE_CONFIRMATION) {
        return reply.code(400).send(errorBody(400, accountErrors.confirmationNeeded));
      }
      const { cancelled } = await removeOwnAccount(
        app.db,
        caller,
        moment(),
        (booking) => releaseBookingPayment(app.payments, request.log, booking),
        app.bookingEvents,
      );
      app.mailQueue.wake();
      request.log.info({ userId: caller.id, cancelled }, 'account removed by its patient');
      return { deletedCount: 1, cancelledBookings: cancelled };
    },
  );
};
